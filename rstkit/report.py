"""Rendering evaluation results: text, JSON, CSV, Markdown, LaTeX — always with the signature.

A report is built from a list of :class:`~rstkit.metrics.EvalResult` (one per metric and
average), each holding the same systems (the first is the baseline of paired tests), plus
optional confidence intervals and paired-test p-values computed beforehand.

One result (one metric, one average) keeps the long-standing layout: a titled table of systems,
and in JSON with one system a single object. Several results make one table whose rows are
(metric, average[, system]) with each row's signature below it, one column group per metric and
average in LaTeX, and in JSON a list of objects, one per (metric, average, system).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .deprecation import renamed_keywords
from .errors import RSTKitError
from .jsontext import dumps_indented
from .metrics import EvalResult
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


@renamed_keywords(fmt="format")
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


# -- text --------------------------------------------------------------------------------
def _text(report: Report, digits: int) -> str:
    if len(report.results) > 1:
        return _text_table(report, digits)
    result = report.results[0]
    if result.family.token_level:
        return _token_text(report, digits)
    measures = result.family.table_measures
    header = ["system", *measures]
    rows = [[system.name, *(_cell(report, 0, s, m, digits) for m in measures)]
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
        rows.append([system.name, f"{scores['P']:.{digits}f}", f"{scores['R']:.{digits}f}", f1,
                     *map(str, counts.values())])
    lines = [f"{_title(result)} (%), {len(result.doc_ids)} documents" + _ci_note(report)]
    paired = [[name, "", "", p_value, "", "", "", ""] for name, p_value in _paired_rows(report, 0, [], [measure])]
    lines += aligned([["system", "P", "R", "F1", "tokens", "gold", "pred", "matched"], *rows, *paired])
    lines.append(f"signature: {result.signature}")
    return "\n".join(lines)


def _ci_note(report: Report) -> str:
    return f", {report.confidence:.0%} bootstrap CI" if report.ci else ""


def _paired_rows(report: Report, r: int, lead: Sequence[str], measures: Sequence[str]) -> list[list[str]]:
    """Rows of p-values of each system against the first, after ``lead`` cells."""
    result = report.results[r]
    rows = []
    for s, system in enumerate(result.systems[1:], start=1):
        for test, pvalues in report.paired.get((r, s), {}).items():
            rows.append([*lead, f"  {system.name} vs {result.systems[0].name} ({test} p)",
                         *(f"{pvalues[m]:.4f}" for m in measures)])
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
                rows.append([*lead, *([system.name] if several else []), *cells])
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
            lines.append(f"segmentation ({system.name}, EDU boundaries, micro): P {seg['precision']:.{digits}f}  "
                         f"R {seg['recall']:.{digits}f}  F1 {seg['f1']:.{digits}f}  "
                         f"(gold {seg['gold']}, predicted {seg['pred']}, matched {seg['matched']})")
    return lines


def _relation_text(result: EvalResult, digits: int, which: str = "") -> list[str]:
    lines = []
    for s, system in enumerate(result.systems):
        rows = [["relation", "gold", "pred", "match", "P", "R", "F1"]]
        for row in result.relations(s).rows():
            rows.append([row["label"], str(row["gold"]), str(row["pred"]), str(row["matched"]),
                         f"{row['precision']:.{digits}f}", f"{row['recall']:.{digits}f}", f"{row['f1']:.{digits}f}"])
        lines.append(f"per relation ({system.name}{which}):")
        lines += aligned(rows)
        confused = result.confusion(s).most_confused(5)
        if confused:
            lines.append("most confused (gold -> predicted, same span): "
                         + "; ".join(f"{g} -> {p} ({n})" for g, p, n in confused))
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
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["system", "metric", "average", "measure", "precision", "recall", "f1",
                     "ci_low", "ci_high", "documents", "signature"])
    for r, result in enumerate(report.results):
        for s, system in enumerate(result.systems):
            for m in result.measures:
                lo, hi = report.ci.get((r, s), {}).get(m, ("", ""))
                writer.writerow([system.name, result.config.metric, result.config.average, m,
                                 system.scores.precision[m], system.scores.recall[m], system.scores.f1[m],
                                 lo, hi, len(result.doc_ids), result.signature])
    return buffer.getvalue().rstrip("\n")


# -- Markdown -----------------------------------------------------------------------------
def _markdown(report: Report, digits: int) -> str:
    results = report.results
    if len(results) == 1:
        result = results[0]
        measures = result.family.table_measures
        lines = [f"**{_title(result)}** (F1 %, {len(result.doc_ids)} documents)", "",
                 "| system | " + " | ".join(measures) + " |", "|---|" + "---:|" * len(measures)]
        for s, system in enumerate(result.systems):
            lines.append(f"| {markdown_cell(system.name)} | "
                         + " | ".join(_cell(report, 0, s, m, digits) for m in measures) + " |")
        return "\n".join([*lines, "", f"`{result.signature}`"])
    several = len(results[0].systems) > 1
    lead = ["metric", "average", *(["system"] if several else [])]
    lines = [f"**F1 (%)**, {len(results[0].doc_ids)} documents"]
    for measures, indices in _groups(results):
        lines += ["", "| " + " | ".join([*lead, *measures]) + " |", "|" + "---|" * len(lead) + "---:|" * len(measures)]
        for r in indices:
            result = results[r]
            for s, system in enumerate(result.systems):
                cells = [result.config.metric, result.config.average,
                         *([markdown_cell(system.name)] if several else []),
                         *(_cell(report, r, s, m, digits) for m in measures)]
                lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"* {result.config.metric}, {result.config.average}: `{result.signature}`" for result in results]
    return "\n".join(lines)


# -- LaTeX (booktabs) -----------------------------------------------------------------------
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#", "$": r"\$",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex_escape(text: str) -> str:
    """``text`` as LaTeX prints it: special characters escaped, line breaks as spaces (a row is one line)."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in " ".join(text.splitlines()))


def _latex(report: Report, digits: int) -> str:
    """Rows: systems; one column group per result, headed by its metric (when there are several)
    and its average (when there are several)."""
    results = report.results
    names = [system.name for system in results[0].systems]
    cols = "l" + "r" * sum(len(res.family.table_measures) for res in results)
    lines = [r"% requires \usepackage{booktabs}", rf"\begin{{tabular}}{{{cols}}}", r"\toprule"]
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
        cells = [f"{res.systems[s].scores.f1[m]:.{digits}f}" for res in results for m in res.family.table_measures]
        lines.append(_latex_escape(name) + " & " + " & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [f"% {res.signature}" for res in results]
    return "\n".join(lines)


def _latex_groups(groups: list[tuple[str, int]]) -> list[str]:
    """A header row of column groups (title, columns) over the score columns, and their rules."""
    cells, rules, start = [], [], 2
    for title, n in groups:
        cells.append(rf"\multicolumn{{{n}}}{{c}}{{{title}}}")
        rules.append(rf"\cmidrule(lr){{{start}-{start + n - 1}}}")
        start += n
    return [" & " + " & ".join(cells) + r" \\", " ".join(rules)]
