"""``rstkit audit``: which evaluation procedure produced a published score?

``rstkit audit GOLD PRED --published "S=85.0 N=71.6 F=61.9"`` scores the predictions under
every variant rstkit knows and ranks the variants by their distance to the published
numbers. ``rstkit audit --paper morey2017`` prints a paper's published tables side by
side; with ``GOLD PRED --parser NAME`` it recomputes that parser's row of every table.
"""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from ..audit import (
    DISTANCE,
    GOLD_BINARIZATIONS,
    LABEL_COLUMN,
    Audit,
    Match,
    Paper,
    PaperTable,
    Published,
    Recomputed,
    audit,
    load_paper,
    paper_keys,
    parse_published,
    recompute_row,
)
from ..errors import RSTKitError
from ..labels import label_map_names
from ..metrics.config import MISSING_POLICIES
from ..tree import RSTTree
from .common import nonnegative_int, pair_single_files, read_input

FORMATS = ("text", "json", "markdown")


def add_parser(sub) -> None:
    p = sub.add_parser("audit", help="find the evaluation variant behind published scores; published tables",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", nargs="?", help="gold file or directory")
    p.add_argument("pred", nargs="?", help="prediction file or directory")
    p.add_argument("--published", metavar="SCORES",
                   help='published scores, e.g. "S=85.0 N=71.6 F=61.9" (R/F=... for a column that is R or F)')
    p.add_argument("--paper", choices=paper_keys(), help="print this paper's published tables")
    p.add_argument("--parser", metavar="NAME", help="with --paper, GOLD and PRED: the parser whose row to recompute")
    p.add_argument("--labels", metavar="MAP[,MAP]", default="rstdt18",
                   help=f"label maps to try besides raw (from {', '.join(label_map_names())}; default rstdt18)")
    p.add_argument("--keep-unknown-labels", action="store_true",
                   help="let unknown labels pass through in every variant (by default only the educe "
                        "binarization variants do, as the reference does)")
    p.add_argument("--missing", choices=MISSING_POLICIES, default="error",
                   help="gold documents without prediction: error, skip them, or score as empty (zero)")
    p.add_argument("--lenient", action="store_true",
                   help="repair extents and score EDU-count mismatches by EDU number, as the reference does")
    p.add_argument("--skip-errors", action="store_true", help="drop unreadable documents (listed as warnings)")
    p.add_argument("--gold-format", metavar="KEY", default=None, help="gold format (default: by extension)")
    p.add_argument("--pred-format", metavar="KEY", default=None,
                   help="prediction format key, or 'auto' to detect it (default: by extension; with --paper "
                        "and --parser, that parser's native format)")
    p.add_argument("--doc-map", metavar="FILE", default=None, help="native file name -> document id map")
    p.add_argument("--top", type=nonnegative_int, default=10,
                   help="ranked variants to show in text/markdown, at least every exact match (0: all)")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format")
    p.add_argument("--digits", type=nonnegative_int, default=2, help="decimals of computed scores in text and Markdown")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if (args.gold is None) != (args.pred is None):
        raise RSTKitError("give both GOLD and PRED, or neither (with --paper)")
    notes: list[str] = []
    if args.paper:
        if args.published:
            raise RSTKitError("--published and --paper do not go together: audit one row with --published alone")
        output = _paper(args, notes)
    else:
        if args.gold is None or not args.published:
            raise RSTKitError("rstkit audit needs GOLD PRED --published SCORES, or --paper KEY")
        if args.parser:
            raise RSTKitError("--parser needs --paper")
        published = parse_published(args.published)
        gold, pred = _documents(args, args.pred_format, notes)
        result = audit(gold, pred, published, _label_maps(args.labels), args.missing, args.lenient,
                       "keep" if args.keep_unknown_labels else None)
        notes.extend(result.warnings)
        output = (json.dumps(result.as_dict(), indent=2) if args.format == "json"
                  else _audit_text(result, args.format, args.digits, args.top))
    for message in dict.fromkeys(notes):
        print(f"rstkit: warning: {message}", file=sys.stderr)
    print(output)
    return 0


def _label_maps(text: str) -> list[str]:
    maps = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in maps if m not in label_map_names()]
    if unknown or not maps:
        raise RSTKitError(f"--labels: unknown label map(s) {', '.join(unknown) or text!r}; "
                          f"choose from {', '.join(label_map_names())}")
    return maps


def _documents(args: argparse.Namespace, pred_format: str | None,
               notes: list[str]) -> tuple[dict[str, RSTTree], dict[str, RSTTree]]:
    gold = read_input(args.gold, args.gold_format, args, notes)
    options = {"doc_map": args.doc_map} if args.doc_map else {}
    pred = read_input(args.pred, pred_format, args, notes, **options)
    if Path(args.gold).is_file() and len(gold) == 1 and Path(args.pred).is_file():
        pred = pair_single_files(pred, next(iter(gold)), args.pred)
    return gold, pred


# -- the audit table ------------------------------------------------------------------------
def _audit_text(result: Audit, fmt: str, digits: int, top: int) -> str:
    published = result.published
    measures = list(published.values)
    with_1edu = any(m.scored.variant.exclude_single_edu for m in result.matches) or any(
        n.variant.exclude_single_edu for n in result.not_applicable)
    header = ["rank", "metric", "average", "labels", "gold bin.", *(["1-EDU docs"] if with_1edu else []),
              *measures, "dist", "mean", "match"]
    blank = [""] * (len(header) - len(measures) - 3)
    rows = [["published", *blank[1:], *(published.text(m) for m in measures), "", "", ""]]
    shown = result.matches if top <= 0 else result.matches[:max(top, len(result.exact))]
    rows += [_match_row(m, measures, with_1edu, digits) for m in shown]
    tolerance = ", ".join(sorted({f"{t:g}" for t in published.tolerances.values()}))
    documents = f"{result.n_documents} document" + ("" if result.n_documents == 1 else "s")
    title = (f"Audit of {published} on {documents}: {len(result.matches)} variants scored, "
             f"{len(result.exact)} exact (within {tolerance}), {len(result.not_applicable)} not applicable")
    more = len(result.matches) - len(shown)
    tail = [f"({more} more variants; --top 0 shows all)"] if more else []
    tail += _not_applicable(result)
    if fmt == "markdown":
        legend = [f"- distance: {DISTANCE}", *(f"- gold bin. `{k}`: {v}" for k, v in GOLD_BINARIZATIONS.items())]
        return "\n".join([f"**{title}**", "", *_markdown_table([header, *rows]), "", *tail, "", *legend]).rstrip()
    legend = [f"distance: {DISTANCE}"]
    legend += [f"{'gold bin.:' if i == 0 else '':10} {k:11} {v}" for i, (k, v) in enumerate(GOLD_BINARIZATIONS.items())]
    return "\n".join([title, *_aligned(header, rows, first_number=len(header) - len(measures) - 3), *tail, *legend])


def _aligned(header: list[str], rows: list[list[str]], first_number: int) -> list[str]:
    """Text columns left-aligned, columns from ``first_number`` on right-aligned; a rule under the header."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) if i < first_number else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return [lines[0], "-" * max(len(line) for line in lines), *lines[1:]]


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


def _match_row(match: Match, measures: list[str], with_1edu: bool, digits: int) -> list[str]:
    variant = match.scored.variant
    cells = []
    for m in measures:
        if m == LABEL_COLUMN:
            cells.append(f"{match.scored.scores[match.label_column]:.{digits}f} ({match.label_column})")
        else:
            cells.append(f"{match.scored.scores[m]:.{digits}f}")
    return [str(match.rank), variant.metric, variant.average, variant.labels, variant.binarization,
            *(["excluded" if variant.exclude_single_edu else "kept"] if with_1edu else []),
            *cells, f"{match.distance:.{digits}f}", f"{match.mean_difference:.{digits}f}",
            "exact" if match.exact else ""]


def _markdown_table(rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return lines + ["| " + " | ".join(row) + " |" for row in rows[1:]]


# -- a paper's tables -------------------------------------------------------------------------
def _paper(args: argparse.Namespace, notes: list[str]) -> str:
    paper = load_paper(args.paper)
    recomputed: list[Recomputed] = []
    row_audit = None
    parser = None
    if args.gold is not None:
        if not args.parser:
            raise RSTKitError("--paper with GOLD and PRED needs --parser NAME (the row to recompute)")
        parser = paper.parser(args.parser)
        try:
            gold, pred = _documents(args, args.pred_format or parser.format, notes)
        except RSTKitError as exc:
            if args.pred_format:
                raise
            raise RSTKitError(f"{exc} (PRED was read in {parser.name}'s native format {parser.format!r}; "
                              "give --pred-format KEY or auto)") from exc
        if len(gold) != (parser.documents or paper.data["documents"]):
            notes.append(f"{paper.key} scores {parser.name} on {parser.documents or paper.data['documents']} "
                         f"documents; the gold given has {len(gold)}")
        recomputed = recompute_row(paper, parser.key, gold, pred, args.missing, args.lenient, notes)
        first = paper.tables[0]
        published = Published.from_values(first.row(parser.key).values, paper.decimals)
        row_audit = audit(gold, pred, published, _label_maps(args.labels), args.missing, args.lenient,
                          "keep" if args.keep_unknown_labels else None)
        notes.extend(row_audit.warnings)
    elif args.parser:
        raise RSTKitError("--parser needs GOLD and PRED (the row is recomputed from them)")
    if args.format == "json":
        return json.dumps(_paper_json(paper, parser.key if parser else None, recomputed, row_audit), indent=2)
    if args.format == "markdown":
        return _paper_markdown(paper, parser.key if parser else None, recomputed, row_audit, args.digits, args.top)
    return _paper_text(paper, parser.key if parser else None, recomputed, row_audit, args.digits, args.top)


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


def _paper_text(paper: Paper, parser: str | None, recomputed: list[Recomputed], row_audit: Audit | None,
                digits: int, top: int) -> str:
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
    lines = [paper.data["citation"], "", lead + "  ".join(titles).rstrip()]
    for k, row in enumerate([header, *rows]):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("-" * len(lines[-1]))
    lines += ["", *_legend(paper, markdown=False)]
    if recomputed:
        lines += ["", f"recomputed on {recomputed[0].n_documents} documents:"]
        lines += [f"  Table {r.table.number}: {r.config.signature(r.n_documents)}" for r in recomputed]
    if row_audit is not None:
        lines += ["", "Table 1 row audited against every variant rstkit knows:",
                  _audit_text(row_audit, "text", digits, top)]
    return "\n".join(lines)


def _paper_markdown(paper: Paper, parser: str | None, recomputed: list[Recomputed], row_audit: Audit | None,
                    digits: int, top: int) -> str:
    data = paper.data
    lines = [f"# Published scores: {paper.key}", "", data["citation"], "",
             *(f"- {line}" for line in _legend(paper, markdown=True)), "", "## Parsers", ""]
    rows = [["key", "parser", "group", "native format (rstkit key)", "documents"]]
    rows += [[p.key, p.name, str(p.group or "–"), f"`{p.format}`", str(p.documents or data["documents"])]
             for p in paper.parsers]
    lines += _markdown_table(rows)
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
        lines += _markdown_table(rows)
    if row_audit is not None:
        lines += ["", "## Table 1 row audited against every variant", "",
                  _audit_text(row_audit, "markdown", digits, top)]
    return "\n".join(lines)


def _paper_json(paper: Paper, parser: str | None, recomputed: list[Recomputed], row_audit: Audit | None) -> dict:
    out = dict(paper.data)
    if parser:
        out["recomputed"] = {"parser": parser, "n_documents": recomputed[0].n_documents,
                             "tables": [r.as_dict() for r in recomputed],
                             "table1_audit": row_audit.as_dict() if row_audit else None}
    return out
