"""Rendering evaluation results: text, JSON, CSV, Markdown, LaTeX — always with the signature.

A report is built from a list of :class:`~rstkit.metrics.EvalResult` (one per metric and
average), each holding the same systems (the first is the baseline of paired tests), plus
optional confidence intervals and paired-test p-values computed beforehand.

One result (one metric, one average) keeps the long-standing layout: a titled table of systems,
and in JSON with one system a single object. Several results make one table whose rows are
(metric, average[, system]) with each row's signature below it, one column group per metric and
average in LaTeX, and in JSON a list of objects, one per (metric, average, system).

Every format shows what was asked for: bootstrap intervals after each score (``--ci``), the
paired tests' p-values of each system against the first, and with ``per_relation`` each system's
per-relation table. A p-value at its test's floor (no resample as extreme as the observed
difference) prints as ``< bound``, the test's resolution (:func:`~rstkit.metrics.significance.p_value_floor`),
never as ``0.0000``. Names and labels from the inputs are shown with control characters escaped
(:func:`~rstkit.errors.printable`: ``\x1b`` as four characters) in every format but JSON, which
escapes them itself.
"""
from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import RSTKitError, printable
from .jsontext import dumps_indented
from .metrics import EvalResult
from .metrics.significance import p_value_floor
from .tables import aligned, markdown_cell

FORMATS = ("text", "json", "csv", "markdown", "latex")


@dataclass
class Report:
    """Results plus the optional statistics that go with them."""

    results: list[EvalResult]
    ci: dict[tuple[int, int], dict[str, tuple[float, float]]] = field(default_factory=dict)
    confidence: float | None = None
    paired: dict[tuple[int, int], dict[str, dict[str, float]]] = field(default_factory=dict)
    per_relation: bool = False

    @property
    def warnings(self) -> list[str]:
        seen: dict[str, None] = {}
        for result in self.results:
            seen.update(dict.fromkeys(result.warnings))
        return list(seen)


def render(report: Report, format: str = "text", digits: int = 2) -> str:
    """The report in format ``format`` (one of :data:`FORMATS`), scores with ``digits`` decimals (>= 0)."""
    if not isinstance(digits, int) or digits < 0:
        raise RSTKitError(f"digits must be an integer >= 0, not {digits!r}")
    if report.per_relation and any(not r.family.relation_column for r in report.results):
        raise RSTKitError(f"{report.results[0].config.metric} has no relations to report (--per-relation)")
    try:
        renderer = {"text": _text, "json": _json, "csv": _csv, "markdown": _markdown, "latex": _latex}[format]
    except KeyError:
        raise RSTKitError(f"unknown report format {format!r}; choose from {', '.join(FORMATS)}") from None
    return renderer(report, digits)


def _title(result: EvalResult) -> str:
    return f"{result.family.title}, {result.config.average}-averaged"


def _groups(results: Sequence[EvalResult]) -> list[tuple[tuple[str, ...], list[int]]]:
    """The results a table shows together, by the measures their families show (constituency
    metrics share S N R F; dependencies have their own): ``(measures, indices)`` in order."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for r, result in enumerate(results):
        groups.setdefault(result.family.table_measures, []).append(r)
    return list(groups.items())


def _cell(report: Report, r: int, s: int, measure: str, digits: int) -> str:
    value = f"{report.results[r].systems[s].scores.f1[measure]:.{digits}f}"
    if (r, s) in report.ci:
        lo, hi = report.ci[(r, s)][measure]
        value += f" [{lo:.{digits}f}, {hi:.{digits}f}]"
    return value


def _name(text: str) -> str:
    """A name or label from the inputs as a report shows it: control characters escaped."""
    return printable(text, limit=None)


def _p_floors(result: EvalResult) -> dict[str, tuple[int, float, float]]:
    """Each paired test's ``(trials, floor, bound)`` under the result's settings (:func:`p_value_floor`)."""
    _, n_bootstrap, n_trials, _ = result.config.statistics.filled()
    return {test: (n, *p_value_floor(test, n)) for test, n in (("bootstrap", n_bootstrap), ("randomization", n_trials))}


def _p_text(result: EvalResult, test: str, p: float, exact: bool = False) -> str:
    """A p-value as a report prints it: at the test's floor ``< bound`` (``< 0.001``), or ``<= bound`` where
    the floor is the bound itself (randomization with 999 trials: p = 1/1000 is no less than 0.001); else
    with 4 decimals, or to its first significant digit where 4 decimals would show 0 (``exact``: every digit)."""
    _, floor, bound = _p_floors(result)[test]
    if p <= floor:
        relation = "<=" if floor >= bound else "<"
        return f"{relation} {bound:.{-math.floor(math.log10(bound))}f}"
    if exact:
        return repr(p)
    shown = f"{p:.4f}"
    return shown if float(shown) else f"{p:.{-math.floor(math.log10(p))}f}"


# -- text --------------------------------------------------------------------------------
def _text(report: Report, digits: int) -> str:
    if len(report.results) > 1:
        return _text_table(report, digits)
    result = report.results[0]
    if result.family.token_level:
        return _token_text(report, digits)
    measures = result.family.table_measures
    header = ["system", *measures]
    rows = [[_name(system.name), *(_cell(report, 0, s, m, digits) for m in measures)]
            for s, system in enumerate(result.systems)]
    lines = [f"{_title(result)} F1 (%), {len(result.doc_ids)} documents" + _ci_note(report)]
    lines += aligned([header, *rows, *_paired_rows(report, 0, [], measures)])
    lines += _segmentation_text(result, digits)
    if report.per_relation:
        lines += ["", *_relation_text(result, digits)]
    lines.append(f"signature: {result.signature}")
    return "\n".join(lines)


def token_scores(result: EvalResult, system: int = 0) -> tuple[dict[str, float], dict[str, int]]:
    """A token-level family's one measure: ``{P, R, F1}`` (percent) and ``{tokens, gold, pred,
    matched}`` summed over the documents that enter the averages."""
    (measure,) = result.family.measures
    chosen = result.systems[system]
    counts = chosen.counts.select(result.included)
    i = counts.measures.index(measure)
    n_tokens = result.n_tokens[result.included] if result.n_tokens is not None else []
    return ({"P": chosen.scores.precision[measure], "R": chosen.scores.recall[measure],
             "F1": chosen.scores.f1[measure]},
            {"tokens": int(sum(n_tokens)), "gold": int(counts.gold[i].sum()), "pred": int(counts.pred[i].sum()),
             "matched": int(counts.matched[i].sum())})


def _token_text(report: Report, digits: int) -> str:
    """One token-level result: P, R, F1 and the counts of each system."""
    result = report.results[0]
    (measure,) = result.family.measures
    rows = []
    for s, system in enumerate(result.systems):
        scores, counts = token_scores(result, s)
        f1 = _cell(report, 0, s, measure, digits)
        rows.append([_name(system.name), f"{scores['P']:.{digits}f}", f"{scores['R']:.{digits}f}", f1,
                     *map(str, counts.values())])
    lines = [f"{_title(result)} (%), {len(result.doc_ids)} documents" + _ci_note(report)]
    paired = [[name, "", "", p_value, "", "", "", ""] for name, p_value in _paired_rows(report, 0, [], [measure])]
    lines += aligned([["system", "P", "R", "F1", "tokens", "gold", "pred", "matched"], *rows, *paired])
    lines.append(f"signature: {result.signature}")
    return "\n".join(lines)


def _ci_note(report: Report) -> str:
    return f", {report.confidence:.0%} bootstrap CI" if report.ci else ""


def _paired_rows(report: Report, r: int, lead: Sequence[str], measures: Sequence[str],
                 indent: str = "  ") -> list[list[str]]:
    """Rows of p-values of each system against the first, after ``lead`` cells: the name cell
    (after ``indent``) and one cell per measure (:func:`_p_text`)."""
    result = report.results[r]
    rows = []
    for s, system in enumerate(result.systems[1:], start=1):
        for test, pvalues in report.paired.get((r, s), {}).items():
            rows.append([*lead, f"{indent}{_name(system.name)} vs {_name(result.systems[0].name)} ({test} p)",
                         *(_p_text(result, test, pvalues[m]) for m in measures)])
    return rows


def _text_table(report: Report, digits: int) -> str:
    """Several (metric, average) results: one table per family's measures (constituency metrics
    share one), rows (metric, average[, system])."""
    several = len(report.results[0].systems) > 1
    first = report.results[0]
    lines = [f"F1 (%), {len(first.doc_ids)} documents" + _ci_note(report)]
    for g, (measures, indices) in enumerate(_groups(report.results)):
        header = ["metric", "average", *(["system"] if several else []), *measures]
        rows = []
        for r in indices:
            result = report.results[r]
            lead = [result.config.metric, result.config.average]
            for s, system in enumerate(result.systems):
                cells = [_cell(report, r, s, m, digits) for m in measures]
                rows.append([*lead, *([_name(system.name)] if several else []), *cells])
            rows += _paired_rows(report, r, lead, measures)
        lines += ([""] if g else []) + aligned([header, *rows], left=len(header) - len(measures))
    lines += _segmentation_text(first, digits)
    if report.per_relation:
        for result in _first_of_each_metric(report.results):
            lines += ["", *_relation_text(result, digits, f", {result.config.metric}")]
    lines += [f"signature ({result.config.metric}, {result.config.average}): {result.signature}"
              for result in report.results]
    return "\n".join(lines)


def _first_of_each_metric(results: list[EvalResult]) -> list[EvalResult]:
    """Per-relation scores and confusions depend on the metric only, not on the average."""
    return list({result.config.metric: result for result in reversed(results)}.values())[::-1]


def _segmentation_text(result: EvalResult, digits: int) -> list[str]:
    """One line per system with ``edus="aligned"``: EDU boundary P/R/F1, micro (DISRPT's way)."""
    lines = []
    for s, system in enumerate(result.systems):
        seg = result.segmentation(s)
        if seg is not None:
            lines.append(f"segmentation ({_name(system.name)}, EDU boundaries, micro): "
                         f"P {seg['precision']:.{digits}f}  "
                         f"R {seg['recall']:.{digits}f}  F1 {seg['f1']:.{digits}f}  "
                         f"(gold {seg['gold']}, predicted {seg['pred']}, matched {seg['matched']})")
    return lines


#: the header of a per-relation table
RELATION_HEADER = ["relation", "gold", "pred", "match", "P", "R", "F1"]


def _relation_rows(result: EvalResult, s: int, digits: int) -> list[list[str]]:
    """System ``s``'s per-relation rows (label escaped, counts, P R F1), most frequent gold label first."""
    return [[_name(row["label"]), str(row["gold"]), str(row["pred"]), str(row["matched"]),
             f"{row['precision']:.{digits}f}", f"{row['recall']:.{digits}f}", f"{row['f1']:.{digits}f}"]
            for row in result.relations(s).rows()]


def _confused(result: EvalResult, s: int) -> str:
    """System ``s``'s five most confused label pairs as a sentence, or empty."""
    confused = result.confusion(s).most_confused(5)
    return ("most confused (gold -> predicted, same span): "
            + "; ".join(f"{_name(g)} -> {_name(p)} ({n})" for g, p, n in confused)) if confused else ""


def _relation_text(result: EvalResult, digits: int, which: str = "") -> list[str]:
    lines = []
    for s, system in enumerate(result.systems):
        lines.append(f"per relation ({_name(system.name)}{which}):")
        lines += aligned([RELATION_HEADER, *_relation_rows(result, s, digits)])
        confused = _confused(result, s)
        if confused:
            lines.append(confused)
    return lines


# -- JSON -------------------------------------------------------------------------------
def _system_json(report: Report, r: int, s: int, with_documents: bool) -> dict[str, Any]:
    result = report.results[r]
    system = result.systems[s]
    out: dict[str, Any] = {
        "name": system.name,
        "scores": dict(system.scores.f1),
        "precision": dict(system.scores.precision),
        "recall": dict(system.scores.recall),
    }
    if result.family.token_level:
        del out["precision"], out["recall"]
        out["scores"], out["counts"] = token_scores(result, s)
    segmentation = result.segmentation(s)
    if segmentation is not None:
        out["segmentation"] = segmentation
    alignment = result.alignment(s)
    if alignment:
        out["alignment"] = alignment
    if (r, s) in report.ci:
        out["ci"] = {m: list(v) for m, v in report.ci[(r, s)].items()}
        out["confidence"] = report.confidence
    if (r, s) in report.paired:
        out["paired_tests"] = {"baseline": result.systems[0].name, **report.paired[(r, s)]}
        # a p-value equal to its test's floor says only p < bound (what the other formats print)
        out["paired_tests_resolution"] = {test: {"trials": n, "floor": floor, "bound": bound}
                                          for test, (n, floor, bound) in _p_floors(result).items()
                                          if test in report.paired[(r, s)]}
    if report.per_relation:
        out["relations"] = result.relations(s).rows()
        matrix = result.confusion(s)
        out["confusion"] = {"labels": matrix.labels, "matrix": matrix.matrix.tolist()}
    if with_documents:
        out["documents"] = result.document_table(s)
    return out


def _json(report: Report, digits: int) -> str:
    results = report.results
    if len(results) == 1 and len(results[0].systems) == 1:
        payload = _system_json(report, 0, 0, with_documents=True)
        payload.pop("name")
        return dumps_indented({**payload, **_result_json(results[0]), "warnings": report.warnings})
    objects = []
    for r, result in enumerate(results):
        for s in range(len(result.systems)):
            system = _system_json(report, r, s, with_documents=True)
            objects.append({"system": system.pop("name"), "metric": result.config.metric,
                            "average": result.config.average, **system, **_result_json(result),
                            "warnings": list(dict.fromkeys(result.warnings))})
    return dumps_indented(objects)


def _result_json(result: EvalResult) -> dict:
    return {"metric": result.config.metric, "average": result.config.average, "signature": result.signature,
            "settings": result.config.as_dict(), "n_documents": len(result.doc_ids)}


# -- CSV ----------------------------------------------------------------------------------
def _csv(report: Report, digits: int) -> str:
    """One row per (system, metric, average, measure); with paired tests a p-value column per test
    (the baseline's cells empty), and with ``per_relation`` the columns relation, gold, pred and
    matched, filled on one row per (system, metric, relation label) after the others."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    tests = list(dict.fromkeys(test for pvalues in report.paired.values() for test in pvalues))
    relation_columns = ["relation", "gold", "pred", "matched"] if report.per_relation else []
    writer.writerow(["system", "metric", "average", "measure", "precision", "recall", "f1",
                     "ci_low", "ci_high", "documents", "signature", *(f"p_{test}" for test in tests),
                     *relation_columns])
    for r, result in enumerate(report.results):
        for s, system in enumerate(result.systems):
            paired = report.paired.get((r, s), {})
            for m in result.measures:
                lo, hi = report.ci.get((r, s), {}).get(m, ("", ""))
                p_cells = [_p_text(result, test, paired[test][m], exact=True) if test in paired else ""
                           for test in tests]
                writer.writerow([_name(system.name), result.config.metric, result.config.average, m,
                                 system.scores.precision[m], system.scores.recall[m], system.scores.f1[m],
                                 lo, hi, len(result.doc_ids), result.signature, *p_cells,
                                 *([""] * len(relation_columns))])
    if report.per_relation:
        for result in _first_of_each_metric(report.results):
            for s, system in enumerate(result.systems):
                for row in result.relations(s).rows():
                    writer.writerow([_name(system.name), result.config.metric, result.config.average,
                                     result.family.relation_measure, row["precision"], row["recall"], row["f1"],
                                     "", "", len(result.doc_ids), result.signature, *([""] * len(tests)),
                                     _name(row["label"]), row["gold"], row["pred"], row["matched"]])
    return buffer.getvalue().rstrip("\n")


# -- Markdown -----------------------------------------------------------------------------
def _markdown(report: Report, digits: int) -> str:
    results = report.results
    if len(results) == 1:
        result = results[0]
        measures = result.family.table_measures
        lines = [f"**{_title(result)}** (F1 %, {len(result.doc_ids)} documents{_ci_note(report)})", "",
                 "| system | " + " | ".join(measures) + " |", "|---|" + "---:|" * len(measures)]
        for s, system in enumerate(result.systems):
            lines.append(f"| {markdown_cell(_name(system.name))} | "
                         + " | ".join(_cell(report, 0, s, m, digits) for m in measures) + " |")
        lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |"
                  for row in _paired_rows(report, 0, [], measures, indent="")]
        return "\n".join([*lines, *_relation_markdown(report, digits), "", f"`{result.signature}`"])
    several = len(results[0].systems) > 1
    lead = ["metric", "average", *(["system"] if several else [])]
    lines = [f"**F1 (%)**, {len(results[0].doc_ids)} documents{_ci_note(report)}"]
    for measures, indices in _groups(results):
        lines += ["", "| " + " | ".join([*lead, *measures]) + " |", "|" + "---|" * len(lead) + "---:|" * len(measures)]
        for r in indices:
            result = results[r]
            for s, system in enumerate(result.systems):
                cells = [result.config.metric, result.config.average,
                         *([markdown_cell(_name(system.name))] if several else []),
                         *(_cell(report, r, s, m, digits) for m in measures)]
                lines.append("| " + " | ".join(cells) + " |")
            lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |"
                      for row in _paired_rows(report, r, [result.config.metric, result.config.average], measures,
                                              indent="")]
    lines += _relation_markdown(report, digits)
    lines.append("")
    lines += [f"* {result.config.metric}, {result.config.average}: `{result.signature}`" for result in results]
    return "\n".join(lines)


def _relation_markdown(report: Report, digits: int) -> list[str]:
    """With ``per_relation``: each system's per-relation table (one per metric), as the text report's."""
    if not report.per_relation:
        return []
    several = len(report.results) > 1
    lines: list[str] = []
    for result in _first_of_each_metric(report.results):
        which = f", {result.config.metric}" if several else ""
        for s, system in enumerate(result.systems):
            lines += ["", f"**Per relation** ({markdown_cell(_name(system.name))}{which})", "",
                      "| " + " | ".join(RELATION_HEADER) + " |", "|---|" + "---:|" * (len(RELATION_HEADER) - 1)]
            lines += ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |"
                      for row in _relation_rows(result, s, digits)]
            confused = _confused(result, s)
            if confused:
                lines += ["", markdown_cell(confused[0].upper() + confused[1:])]
    return lines


# -- LaTeX (booktabs) -----------------------------------------------------------------------
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#", "$": r"\$",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex_escape(text: str) -> str:
    """``text`` as LaTeX prints it: control characters escaped as :func:`_name` shows them (a line break as
    ``\\n``: a row is one line), then LaTeX's special characters."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in _name(text))


def _latex_p(text: str) -> str:
    """A p-value cell (:func:`_p_text`) in LaTeX: ``<`` and ``<=`` in math mode (text mode prints another glyph)."""
    return text.replace("<= ", "$\\le$ ").replace("< ", "$<$ ")


def _latex(report: Report, digits: int) -> str:
    """Rows: systems; one column group per result, headed by its metric (when there are several)
    and its average (when there are several)."""
    results = report.results
    names = [system.name for system in results[0].systems]
    cols = "l" + "r" * sum(len(res.family.table_measures) for res in results)
    lines = [r"% requires \usepackage{booktabs}"]
    if report.ci:
        lines.append(f"% scores: F1 [{report.confidence:.0%} bootstrap CI]")
    lines += [rf"\begin{{tabular}}{{{cols}}}", r"\toprule"]
    if len({res.config.metric for res in results}) > 1:
        runs: list[tuple[str, int]] = []  # consecutive results of one metric: (title, columns)
        for res in results:
            width = len(res.family.table_measures)
            if runs and runs[-1][0] == res.family.title:
                runs[-1] = (runs[-1][0], runs[-1][1] + width)
            else:
                runs.append((res.family.title, width))
        lines += _latex_groups(runs)
    if len({res.config.average for res in results}) > 1:
        lines += _latex_groups([(res.config.average, len(res.family.table_measures)) for res in results])
    lines.append("System & " + " & ".join(_latex_escape(m) for res in results for m in res.family.table_measures)
                 + r" \\")
    lines.append(r"\midrule")
    for s, name in enumerate(names):
        cells = [_cell(report, r, s, m, digits) for r, res in enumerate(results) for m in res.family.table_measures]
        lines.append(_latex_escape(name) + " & " + " & ".join(cells) + r" \\")
    paired = _latex_paired_rows(report)
    if paired:
        lines += [r"\midrule", *paired]
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [f"% {res.signature}" for res in results]
    return "\n".join([*lines, *_relation_latex(report, digits)])


def _latex_paired_rows(report: Report) -> list[str]:
    """One row per (system after the first, paired test): its p-values in every result's columns."""
    results = report.results
    rows = []
    for s, system in enumerate(results[0].systems[1:], start=1):
        for test in dict.fromkeys(t for r in range(len(results)) for t in report.paired.get((r, s), {})):
            cells = []
            for r, res in enumerate(results):
                pvalues = report.paired.get((r, s), {}).get(test)
                cells += [_latex_p(_p_text(res, test, pvalues[m])) if pvalues else ""
                          for m in res.family.table_measures]
            name = f"{_latex_escape(system.name)} vs {_latex_escape(results[0].systems[0].name)} ({test} $p$)"
            rows.append(name + " & " + " & ".join(cells) + r" \\")
    return rows


def _relation_latex(report: Report, digits: int) -> list[str]:
    """With ``per_relation``: each system's per-relation table (one per metric), after the scores."""
    if not report.per_relation:
        return []
    lines: list[str] = []
    several = len(report.results) > 1
    for result in _first_of_each_metric(report.results):
        which = f", {result.config.metric}" if several else ""
        for s, system in enumerate(result.systems):
            lines += ["", f"% per relation ({_name(system.name)}{which})", r"\begin{tabular}{lrrrrrr}", r"\toprule",
                      " & ".join(word.capitalize() if word.islower() else word for word in RELATION_HEADER)
                      + r" \\", r"\midrule"]
            lines += [" & ".join([_latex_escape(row[0]), *row[1:]]) + r" \\"
                      for row in _relation_rows(result, s, digits)]
            lines += [r"\bottomrule", r"\end{tabular}"]
            confused = _confused(result, s)
            if confused:
                lines.append(f"% {confused}")
    return lines


def _latex_groups(groups: list[tuple[str, int]]) -> list[str]:
    """A header row of column groups (title, columns) over the score columns, and their rules."""
    cells, rules, start = [], [], 2
    for title, n in groups:
        cells.append(rf"\multicolumn{{{n}}}{{c}}{{{title}}}")
        rules.append(rf"\cmidrule(lr){{{start}-{start + n - 1}}}")
        start += n
    return [" & " + " & ".join(cells) + r" \\", " ".join(rules)]
