"""Audits and papers' tables as text, Markdown or JSON: what ``rstkit audit`` prints."""
from __future__ import annotations

import json
import textwrap

from ..errors import RSTKitError
from ..settings import RST_EVAL
from ..tables import aligned, markdown_table
from .papers import Paper, PaperAudit, PaperTable, Recomputed
from .published import LABEL_COLUMN
from .ranking import DEPENDENCY_ENCODINGS, DISTANCE, GOLD_BINARIZATIONS, Audit, Match

#: the formats an audit renders to
AUDIT_FORMATS = ("text", "json", "markdown")


def render_audit(result: Audit, format: str = "text", *, digits: int = 2, top: int = 10) -> str:
    """The audit in ``format`` (one of :data:`AUDIT_FORMATS`). Text and Markdown show the ``top``
    ranked variants (at least every exact match; 0: all), scores with ``digits`` decimals.

    >>> from rstkit import audit_published, parse_published, read_documents
    >>> gold, pred = read_documents("corpora/sample/gold"), read_documents("corpora/sample/pred")
    >>> print(render_audit(audit_published(gold, pred, parse_published("S=68.3 N=61.7 F=57.5")), top=1))
    Audit of S=68.3 N=61.7 F=57.5 on 4 documents: 96 variants scored, 4 exact (within 0.05), 0 not applicable
    ...
    1          rst-parseval  macro    rstdt18  right      kept        68.33  61.67  57.50  0.03  0.02  exact
    ...
    """
    _check(format, digits, top)
    return json.dumps(result.as_dict(), indent=2) if format == "json" else _audit_text(result, format, digits, top)


def render_paper(result: PaperAudit, format: str = "text", *, digits: int = 2, top: int = 10) -> str:
    """A paper's published tables side by side, with the recomputed row and its audit when there
    is one, in ``format`` (as :func:`render_audit`).

    >>> from rstkit import audit_paper, load_paper, read_documents
    >>> gold, pred = read_documents("corpora/sample/gold"), read_documents("corpora/sample/pred")
    >>> print(render_paper(audit_paper(gold, pred, load_paper("morey2017"), "je14-dplp")))
    Morey, Muller & Asher (EMNLP 2017). How much progress have we made on RST discourse parsing? ...
    """
    _check(format, digits, top)
    if format == "json":
        return json.dumps(result.as_dict(), indent=2)
    return (_paper_markdown if format == "markdown" else _paper_text)(result, digits, top)


def _check(format: str, digits: int, top: int) -> None:
    if format not in AUDIT_FORMATS:
        raise RSTKitError(f"unknown audit format {format!r}; choose from {', '.join(AUDIT_FORMATS)}")
    for name, value in (("digits", digits), ("top", top)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RSTKitError(f"{name} must be an integer >= 0, not {value!r}")


def _audit_text(result: Audit, fmt: str, digits: int, top: int) -> str:
    """The ranking as a text or Markdown table, with the variants not applicable and a legend."""
    published = result.published
    measures = list(published.values)
    with_1edu = any(m.scored.variant.exclude_single_edu for m in result.matches) or any(
        n.variant.exclude_single_edu for n in result.not_applicable)
    dependency = any(m.scored.variant.dep_encoding for m in result.matches)
    procedure = any(m.scored.variant.procedure for m in result.matches)
    header = ["rank", "metric", "average", "labels", "gold bin.", *(["encoding", "compat"] if dependency else []),
              *(["procedure"] if procedure else []),
              *(["1-EDU docs"] if with_1edu else []), *measures, "dist", "mean", "match"]
    blank = [""] * (len(header) - len(measures) - 3)
    rows = [["published", *blank[1:], *(published.text(m) for m in measures), "", "", ""]]
    shown = result.matches if top <= 0 else result.matches[:max(top, len(result.exact))]
    rows += [_match_row(m, measures, with_1edu, dependency, digits, procedure) for m in shown]
    tolerance = ", ".join(sorted({f"{t:g}" for t in published.tolerances.values()}))
    documents = f"{result.n_documents} document" + ("" if result.n_documents == 1 else "s")
    title = (f"Audit of {published} on {documents}: {len(result.matches)} variants scored, "
             f"{len(result.exact)} exact (within {tolerance}), {len(result.not_applicable)} not applicable")
    more = len(result.matches) - len(shown)
    tail = [f"({more} more variants; --top 0 shows all)"] if more else []
    if result.presets_scored:
        tail.append("peers' procedures (presets) that reproduce it: " + (", ".join(result.exact_presets) or "none"))
    tail += _not_applicable(result)
    explained = ("encoding", DEPENDENCY_ENCODINGS) if dependency else ("gold bin.", GOLD_BINARIZATIONS)
    if fmt == "markdown":
        legend = [f"- distance: {DISTANCE}", *(f"- {explained[0]} `{k}`: {v}" for k, v in explained[1].items())]
        return "\n".join([f"**{title}**", "", *markdown_table([header, *rows]), "", *tail, "", *legend]).rstrip()
    legend = [f"distance: {DISTANCE}"]
    legend += [f"{explained[0] + ':' if i == 0 else '':10} {k:11} {v}" for i, (k, v) in enumerate(explained[1].items())]
    return "\n".join([title, *aligned([header, *rows], left=len(header) - len(measures) - 3), *tail, *legend])


def _not_applicable(result: Audit) -> list[str]:
    """Variants that could not be computed, grouped by reason."""
    by_reason: dict[str, list[str]] = {}
    for item in result.not_applicable:
        by_reason.setdefault(item.reason, []).append(item.variant.name)
    lines = [f"not applicable ({len(result.not_applicable)} variants):"] if by_reason else []
    for reason, names in by_reason.items():
        lines.append(f"  {reason}")
        lines += textwrap.wrap(", ".join(names), 110, initial_indent="    ", subsequent_indent="    ",
                               break_on_hyphens=False)
    return lines


def _match_row(match: Match, measures: list[str], with_1edu: bool, dependency: bool, digits: int,
               procedure: bool = False) -> list[str]:
    variant = match.scored.variant
    cells = []
    for m in measures:
        if m == LABEL_COLUMN:
            column = match.label_column or m
            cells.append(f"{match.scored.scores[column]:.{digits}f} ({column})")
        else:
            cells.append(f"{match.scored.scores[m]:.{digits}f}")
    return [str(match.rank), variant.metric, variant.average, variant.labels, variant.binarization,
            *([variant.dep_encoding or "", RST_EVAL if variant.compat else "none"] if dependency else []),
            *([variant.procedure] if procedure else []),
            *(["excluded" if variant.exclude_single_edu else "kept"] if with_1edu else []),
            *cells, f"{match.distance:.{digits}f}", f"{match.mean_difference:.{digits}f}",
            "exact" if match.exact else ""]


def _short_title(table: PaperTable) -> str:
    if "average" not in table.settings:
        return f"Table {table.number}: published"
    return f"Table {table.number}: {table.settings['metric']} {table.settings['average']}"


def _mark(paper: Paper, parser: str) -> str:
    return next((t.row(parser).mark for t in paper.tables if t.row(parser).mark), "")


def _published_cell(paper: Paper, table: PaperTable, parser: str, column: str, emphasis: str) -> str:
    value = table.row(parser).values[column]
    text = "–" if value is None else f"{value:.{paper.decimals}f}"
    return emphasis.format(text) if column in table.matches_table1.get(parser, ()) else text


def _recomputed_rows(recomputed: list[Recomputed], digits: int) -> tuple[list[str], list[str]]:
    values, differences = [], []
    for item in recomputed:
        for column in item.table.columns:
            suffix = f" ({item.label_column})" if column == LABEL_COLUMN else ""
            values.append(f"{item.value(column):.{digits}f}{suffix}")
            difference = item.difference(column)
            differences.append("" if difference is None else f"{difference:+.{digits}f}")
    return values, differences


def _legend(paper: Paper, markdown: bool) -> list[str]:
    data = paper.data
    groups = "; ".join(f"{k} = {g['description']} (originally {g['average']}-averaged)"
                       for k, g in data["groups"].items())
    star = "\\*" if markdown else "*"
    marks = "; ".join(f"{k.replace('*', star)} = {v}" for k, v in data["marks"].items() if k)
    emphasis = "bold" if markdown else "[x]"
    return [f"scores: {data['scores']}", f"group: {groups}", f"marks (replicated tables): {marks}",
            f"{emphasis}: marked in the paper as expected to match Table 1", f"settings: {data['settings_note']}"]


def _paper_text(result: PaperAudit, digits: int, top: int) -> str:
    paper, parser, recomputed, row_audit = result.paper, result.parser, result.recomputed, result.row_audit
    tables = paper.tables
    header = ["parser", "group", *(c for t in tables for c in t.columns)]
    rows = []
    for p in paper.parsers:
        rows.append([f"{p.name} {_mark(paper, p.key)}".rstrip(), str(p.group or "-"),
                     *(_published_cell(paper, t, p.key, c, "[{}]") for t in tables for c in t.columns)])
        if p.key == parser:
            values, differences = _recomputed_rows(recomputed, digits)
            rows += [["  recomputed", "", *values], ["  difference", "", *differences]]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    column = 2
    titles = []
    for table in tables:  # widen a table's first column until its title fits over its columns
        span = slice(column, column + len(table.columns))
        title = _short_title(table)
        missing = len(title) - (sum(widths[span]) + 2 * (len(table.columns) - 1))
        if missing > 0:
            widths[column] += missing
        titles.append(title.center(sum(widths[span]) + 2 * (len(table.columns) - 1)))
        column += len(table.columns)
    lead = " " * (widths[0] + 2 + widths[1] + 2)
    lines = [paper.data["citation"], "", lead + "  ".join(titles).rstrip(), *aligned([header, *rows], widths=widths),
             "", *_legend(paper, markdown=False)]
    if recomputed:
        lines += ["", f"recomputed on {recomputed[0].n_documents} documents:"]
        lines += [f"  Table {r.table.number}: {r.config.signature(r.n_documents)}" for r in recomputed]
    if row_audit is not None:
        lines += ["", "Table 1 row audited against every variant rstkit knows:",
                  _audit_text(row_audit, "text", digits, top)]
    return "\n".join(lines)


def _paper_markdown(result: PaperAudit, digits: int, top: int) -> str:
    paper, parser, recomputed, row_audit = result.paper, result.parser, result.recomputed, result.row_audit
    data = paper.data
    lines = [f"# Published scores: {paper.key}", "", data["citation"], "",
             *(f"- {line}" for line in _legend(paper, markdown=True)), "", "## Parsers", ""]
    rows = [["key", "parser", "group", "native format (rstkit key)", "documents"]]
    rows += [[p.key, p.name, str(p.group or "–"), f"`{p.format}`", str(p.documents or data["documents"])]
             for p in paper.parsers]
    lines += markdown_table(rows)
    by_table = {r.table.number: r for r in recomputed}
    for table in paper.tables:
        ordered = {"metric": table.settings["metric"], "average": table.settings.get("average", "per row"),
                   **table.settings}
        settings = " ".join(f"{k}={v}" for k, v in ordered.items())
        lines += ["", f"## Table {table.number} — {table.title}", "", f"Settings: `{settings}`", ""]
        rows = [["parser", *table.columns]]
        for p in paper.parsers:
            rows.append([f"{table.row(p.key).label} {table.row(p.key).mark}".rstrip().replace("*", "\\*"),
                         *(_published_cell(paper, table, p.key, c, "**{}**") for c in table.columns)])
            if p.key == parser:
                item = by_table[table.number]
                values, differences = _recomputed_rows([item], digits)
                rows += [["recomputed", *values], ["difference", *differences]]
        lines += markdown_table(rows)
    if row_audit is not None:
        lines += ["", "## Table 1 row audited against every variant", "",
                  _audit_text(row_audit, "markdown", digits, top)]
    return "\n".join(lines)
