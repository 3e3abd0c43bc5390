"""``rstkit eval GOLD PRED [PRED2 ...]``: score predictions against gold trees, with a signature."""
from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from ..errors import RSTKitError, RSTKitWarning
from ..metrics import EvalConfig, evaluate
from ..metrics.config import Statistics
from ..report import FORMATS, Report, render
from ..settings import AVERAGES, COMPAT_MODES, EDU_MODES, EVAL_BINARIZATIONS, METRICS, MISSING_POLICIES, RST_EVAL
from .common import (
    add_label_option,
    nonnegative_int,
    open_unit_interval,
    pair_single_files,
    positive_int,
    read_input,
    seed,
)


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="score predicted trees against gold trees", description=__doc__)
    p.add_argument("gold", help="gold file or directory (documents matched by id)")
    p.add_argument("preds", nargs="+", metavar="PRED",
                   help="prediction file(s) or directories; with several, the first is the baseline")
    p.add_argument("--metric", choices=[*METRICS, "all"], default="parseval",
                   help="rst-parseval (Marcu), parseval (original, on attachment decisions), or all")
    p.add_argument("--average", choices=AVERAGES, default="micro",
                   help="micro (pooled), macro (mean of per-document F1), dplp (DPLP's per-document P/R)")
    add_label_option(p, default="raw")
    p.add_argument("--binarize", choices=EVAL_BINARIZATIONS, default="right",
                   help="binarization of gold and predictions (default: right-heavy)")
    p.add_argument("--compat", choices=COMPAT_MODES, default=None,
                   help="reproduce the reference implementation (educe/rst-eval), quirks included")
    p.add_argument("--missing", choices=MISSING_POLICIES, default="error",
                   help="gold documents without prediction: error, skip them, or score as empty (zero)")
    p.add_argument("--lenient", action="store_true",
                   help="repair inconsistent extents, and score gold/prediction pairs with different EDU "
                        "counts by EDU number as the reference does (with warnings; shown in the signature)")
    p.add_argument("--edus", choices=EDU_MODES, default="gold",
                   help="gold: both sides have the same EDUs (compared by number); aligned: score predictions "
                        "that segment their own EDUs, with spans over the characters of the text (which must "
                        "be the same, whitespace aside) and an EDU segmentation score (shown in the signature; "
                        "--lenient then only repairs extents when reading)")
    p.add_argument("--exclude-single-edu", action="store_true", help="leave 1-EDU documents out of the averages")
    p.add_argument("--skip-errors", action="store_true",
                   help="drop unreadable documents (listed as warnings) instead of failing")
    p.add_argument("--gold-format", metavar="KEY", default=None, help="gold format (default: by extension)")
    p.add_argument("--pred-format", metavar="KEY", default=None,
                   help="prediction format key, or 'auto' to detect it (default: by extension)")
    p.add_argument("--doc-map", metavar="FILE", default=None,
                   help="native file name -> document id map, for formats whose files do not name the document")
    p.add_argument("--names", metavar="A,B,...", default=None, help="system names for the PREDs")
    p.add_argument("--ci", type=open_unit_interval, metavar="LEVEL", default=None,
                   help="bootstrap confidence intervals at this level, e.g. 0.95 (documents resampled)")
    p.add_argument("--n-bootstrap", type=positive_int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--n-trials", type=positive_int, default=10000, help="approximate randomization trials (default 10000)")
    p.add_argument("--seed", type=seed, default=12345, help="seed of resampling and randomization")
    p.add_argument("--per-relation", action="store_true", help="add per-relation scores and a confusion summary")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format")
    p.add_argument("--digits", type=nonnegative_int, default=2, help="decimals in text, Markdown and LaTeX output")
    p.set_defaults(run=run)


def _system_names(args: argparse.Namespace) -> list[str]:
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != len(args.preds):
            raise RSTKitError(f"--names gives {len(names)} names for {len(args.preds)} prediction sets")
        return names
    names = [Path(p).name.split(".")[0] or p for p in args.preds]
    return [n if names.count(n) == 1 else f"{n}#{i + 1}" for i, n in enumerate(names)]


def run(args: argparse.Namespace) -> int:
    notes: list[str] = []
    gold = read_input(args.gold, args.gold_format, args, notes)
    options = {"doc_map": args.doc_map} if args.doc_map else {}
    preds = [read_input(p, args.pred_format, args, notes, **options) for p in args.preds]
    if Path(args.gold).is_file() and len(gold) == 1:
        (gold_id,) = gold
        preds = [pair_single_files(pred, gold_id, path) if Path(path).is_file() else pred
                 for pred, path in zip(preds, args.preds)]
    metrics = list(METRICS) if args.metric == "all" else [args.metric]
    settings = dict(average=args.average, labels=args.labels, binarize=args.binarize, missing=args.missing,
                    edus=args.edus, lenient=args.lenient, exclude_single_edu=args.exclude_single_edu,
                    unknown_labels="keep" if args.keep_unknown_labels else "error",
                    statistics=Statistics.used(args.ci, args.n_bootstrap, args.n_trials, args.seed,
                                               paired=len(args.preds) > 1))
    names = _system_names(args)
    report = Report([], confidence=args.ci, per_relation=args.per_relation)
    with warnings.catch_warnings():  # evaluate's warnings are kept in the results, printed once below
        warnings.simplefilter("ignore", RSTKitWarning)
        for metric in metrics:
            config = (EvalConfig.rst_eval(metric=metric, **{k: v for k, v in settings.items() if k != "unknown_labels"})
                      if args.compat == RST_EVAL else EvalConfig(metric=metric, **settings))
            report.results.append(evaluate(gold, preds, config, names))
    for r, result in enumerate(report.results):
        result.warnings[:0] = notes
        for s in range(len(result.systems)):
            if args.ci:
                report.ci[(r, s)] = result.bootstrap(confidence=args.ci, n_samples=args.n_bootstrap, seed=args.seed,
                                                     system=s)
            if s > 0:
                report.paired[(r, s)] = result.paired_tests(s, 0, n_samples=args.n_bootstrap, n_trials=args.n_trials,
                                                            seed=args.seed)
    for message in report.warnings:
        print(f"rstkit: warning: {message}", file=sys.stderr)
    print(render(report, args.format, args.digits))
    return 0
