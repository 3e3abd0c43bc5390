"""``rstkit audit``: which evaluation procedure produced a published score?

``rstkit audit GOLD PRED --published "S=85.0 N=71.6 F=61.9"`` scores the predictions under
every variant rstkit knows and ranks the variants by their distance to the published
numbers. ``rstkit audit --paper morey2017`` prints a paper's published tables side by
side; with ``GOLD PRED --parser NAME`` it recomputes that parser's row of every table.
With ``--split NAME``, GOLD is a corpus directory (a GUM checkout, an RST-DT release, a
directory with ``splits.tsv``) and that split's documents are the gold, in both uses
(``rstkit audit RSTDT_RELEASE PRED --split test --paper morey2017 --parser NAME``).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from ..audit import (
    AUDIT_FORMATS,
    PaperAudit,
    audit_paper,
    audit_published,
    load_paper,
    paper_keys,
    parse_published,
    render_audit,
    render_paper,
)
from ..errors import RSTKitError
from ..evaluation import pair_single_files
from ..labels import label_map_names
from ..settings import EDU_MODES, MISSING_POLICIES, SPAN_KEYS
from ..tree import RSTTree
from .common import (
    STREAM,
    add_output_option,
    add_split_option,
    add_unknown_labels_option,
    check_result_target,
    check_split,
    nonnegative_int,
    one_stdin,
    read_command_input,
    refuse_unused,
    remember_defaults,
    report_name,
    warn,
    write_result,
)


def add_parser(sub) -> None:
    p = sub.add_parser("audit", help="find the evaluation variant behind published scores; published tables",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", nargs="?", help="gold file or directory")
    p.add_argument("pred", nargs="?", help="prediction file or directory")
    add_split_option(p, "GOLD", "the gold")
    p.add_argument("--published", metavar="SCORES",
                   help='published scores, e.g. "S=85.0 N=71.6 F=61.9" (R/F=... for a column that is R or F)')
    p.add_argument("--paper", choices=paper_keys(), help="print this paper's published tables")
    p.add_argument("--parser", metavar="NAME", help="with --paper, GOLD and PRED: the parser whose row to recompute")
    p.add_argument("--labels", metavar="MAP[,MAP]", default=None,
                   help=f"label maps to try besides raw (from {', '.join(label_map_names())}; default: those of "
                        "the data's labels, gum for GUM's, rstdt18 for RST-DT's and where no label tells them "
                        "apart)")
    add_unknown_labels_option(p, None, "keep unknown labels, lowercased, in every variant (by default only the "
                                       "educe binarization variants do, as the reference does)")
    p.add_argument("--missing", choices=MISSING_POLICIES, default="error",
                   help="gold documents without prediction: error, skip them, or score as empty (zero)")
    p.add_argument("--lenient", action="store_true",
                   help="repair extents and score EDU-count mismatches by EDU number, as the reference does")
    p.add_argument("--skip-errors", action="store_true", help="drop unreadable documents (listed as warnings)")
    p.add_argument("--from", dest="in_format", metavar="KEY", default=None,
                   help="format of gold and predictions, or 'auto' to detect it (default: by extension); "
                        "--gold-format and --pred-format set one side")
    p.add_argument("--gold-format", metavar="KEY", default=None, help="gold format (default: by extension)")
    p.add_argument("--pred-format", metavar="KEY", default=None,
                   help="prediction format key, or 'auto' to detect it (default: by extension; with --paper "
                        "and --parser, that parser's native format, else detected)")
    p.add_argument("--doc-map", metavar="FILE", default=None, help="native file name -> document id map")
    p.add_argument("--edus", choices=EDU_MODES, default="gold",
                   help="aligned: an end-to-end number (predictions with their own EDUs, spans compared by "
                        "character); every variant is then ranked under each span keying (--span-key)")
    p.add_argument("--span-key", choices=SPAN_KEYS, action="append", default=None,
                   help="with --edus aligned: the span keying(s) to rank (default both: chars and first-edu-end, "
                        "DMRST's and isanlp_rst's); may be given twice")
    p.add_argument("--presets", action="store_true",
                   help="also rank the peers' procedures by name (eval --preset; docs/presets.md) and say which "
                        "reproduce the published numbers")
    p.add_argument("--top", type=nonnegative_int, default=10,
                   help="ranked variants to show in text/markdown, at least every exact match (0: all)")
    p.add_argument("--format", choices=AUDIT_FORMATS, default="text", help="output format")
    add_output_option(p, "the audit")
    p.add_argument("--digits", type=nonnegative_int, default=2, help="decimals of computed scores in text and Markdown")
    p.set_defaults(run=run)
    remember_defaults(p)


#: the options of reading and scoring GOLD and PRED
_SCORING = ("labels", "unknown_labels", "missing", "lenient", "skip_errors", "in_format", "gold_format",
            "pred_format", "doc_map", "edus", "span_key", "presets", "digits", "top", "split")


def _refuse_unused(args: argparse.Namespace) -> None:
    """Options that would change nothing in this audit are errors naming them."""
    if args.paper and args.gold is None:
        refuse_unused(args, _SCORING, "is for reading and scoring GOLD and PRED: --paper KEY alone prints the paper's "
                                      "published tables, nothing is scored")
    if args.paper:
        refuse_unused(args, ("edus", "span_key", "presets"),
                      "does not apply to --paper: the parser's row is recomputed under the paper's procedures, "
                      "over gold EDUs")
    if args.span_key and args.edus != "aligned":
        raise RSTKitError("--span-key needs --edus aligned (with gold EDUs both keyings give the same scores)")
    if args.format == "json":
        refuse_unused(args, ("digits", "top"), "applies to text and Markdown: --format json lists every variant "
                                               "with its scores unrounded")


def run(args: argparse.Namespace) -> int:
    if (args.gold is None) != (args.pred is None):
        raise RSTKitError("give both GOLD and PRED, or neither (with --paper)")
    _refuse_unused(args)
    notes: list[str] = []
    one_stdin([args.gold, args.pred])
    if args.gold is not None:
        check_split(args.gold, args.split, "GOLD")
    check_result_target(args.output, [args.gold, args.pred], report_name("audit", args.format))
    if args.paper:
        if args.published:
            raise RSTKitError("--published and --paper do not go together: audit one row with --published alone")
        output = render_paper(_paper(args, notes), args.format, digits=args.digits, top=args.top)
    else:
        if args.gold is None or not args.published:
            raise RSTKitError("rstkit audit needs GOLD PRED --published SCORES, or --paper KEY")
        if args.parser:
            raise RSTKitError("--parser needs --paper")
        published = parse_published(args.published)
        gold, pred = _documents(args, args.pred_format or args.in_format, notes)
        result = audit_published(gold, pred, published, label_maps=_label_maps(args.labels), missing=args.missing,
                       lenient=args.lenient, unknown_labels=args.unknown_labels,
                       edus=args.edus, span_keys=tuple(dict.fromkeys(args.span_key or SPAN_KEYS)),
                       presets=args.presets)
        notes.extend(result.warnings)
        output = render_audit(result, args.format, digits=args.digits, top=args.top)
    for message in dict.fromkeys(notes):
        warn(message)
    write_result(output, args.output, report_name("audit", args.format))
    return 0


def _label_maps(text: str | None) -> list[str] | None:
    """The label maps ``--labels`` names; None (those of the data) when it is not given."""
    if text is None:
        return None
    maps = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in maps if m not in label_map_names()]
    if unknown or not maps:
        raise RSTKitError(f"--labels: unknown label map(s) {', '.join(unknown) or text!r}; "
                          f"choose from {', '.join(label_map_names())}")
    return maps


def _documents(args: argparse.Namespace, pred_format: str | None,
               notes: list[str]) -> tuple[dict[str, RSTTree], dict[str, RSTTree]]:
    gold = read_command_input(args.gold, args.gold_format or args.in_format, args, notes, "gold_format",
                              split=args.split)
    options = {"doc_map": args.doc_map} if args.doc_map else {}
    pred = read_command_input(args.pred, pred_format, args, notes, "pred_format", **options)
    if _is_file(args.gold) and len(gold) == 1 and _is_file(args.pred):
        pred = pair_single_files(pred, next(iter(gold)), args.pred)
    return gold, pred


def _is_file(path: str) -> bool:
    return path == STREAM or Path(path).is_file()


def _paper(args: argparse.Namespace, notes: list[str]) -> PaperAudit:
    """The paper's tables; with GOLD and PRED, the row of ``--parser`` recomputed and audited."""
    paper = load_paper(args.paper)
    if args.gold is None:
        if args.parser:
            raise RSTKitError("--parser needs GOLD and PRED (the row is recomputed from them)")
        return PaperAudit(paper)
    if not args.parser:
        raise RSTKitError("--paper with GOLD and PRED needs --parser NAME (the row to recompute)")
    parser = paper.parser(args.parser)
    given = args.pred_format or args.in_format
    try:
        gold, pred = _documents(args, given or parser.format, notes)
    except RSTKitError as exc:
        if given:
            raise
        try:  # not the parser's native output: PRED's own format, detected (e.g. .dis files converted)
            gold, pred = _documents(args, "auto", notes)
        except RSTKitError:
            raise RSTKitError(f"{exc} (PRED was read in {parser.name}'s native format {parser.format!r}, then "
                              "detected without success; give --pred-format KEY)") from exc
    if len(gold) != (parser.documents or paper.data["documents"]):
        notes.append(f"{paper.key} scores {parser.name} on {parser.documents or paper.data['documents']} "
                     f"documents; the gold given has {len(gold)}")
    result = audit_paper(gold, pred, paper, parser.key, label_maps=_label_maps(args.labels), missing=args.missing,
                         lenient=args.lenient, unknown_labels=args.unknown_labels)
    notes.extend(result.warnings)
    return result
