"""``rstkit eval GOLD PRED [PRED2 ...]``: score predictions against gold trees, with a signature."""
from __future__ import annotations

import argparse
import contextlib
import warnings

from ..errors import MissingDocumentError, RSTKitError, RSTKitWarning
from ..evaluation import default_names, evaluate
from ..metrics import EvalConfig
from ..metrics.config import Statistics
from ..metrics.presets import preset_settings
from ..metrics.registry import ALL_METRICS, METRICS
from ..report import FORMATS
from ..settings import (
    AVERAGES,
    COMPAT_MODES,
    EDU_MODES,
    EVAL_BINARIZATIONS,
    MISSING_POLICIES,
    PRESETS,
    RST_EVAL,
    SPAN_KEYS,
)
from .common import (
    STDIN_NAME,
    STREAM,
    add_alias,
    add_encoding_option,
    add_label_option,
    add_output_option,
    check_result_target,
    comma_list,
    dep_encoding,
    detected_format,
    nonnegative_int,
    one_stdin,
    open_unit_interval,
    positive_int,
    report_name,
    seed,
    stdin_as_file,
    stdin_format,
    warn,
    write_result,
)


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="score predicted trees against gold trees", description=__doc__)
    p.add_argument("gold", help="gold file or directory (documents matched by id); -: one file on standard input")
    p.add_argument("preds", nargs="+", metavar="PRED",
                   help="prediction file(s) or directories; with several, the first is the baseline")
    p.add_argument("--metric", **comma_list(ALL_METRICS, every=METRICS), default=None, metavar="METRIC[,METRIC...]",
                   help="rst-parseval (Marcu), parseval (original, on attachment decisions), dependency (Morey et "
                        "al. 2018: one head-ordered dependency per EDU), all (every family), or a comma list "
                        "of them, e.g. rst-parseval,parseval (default: parseval); segmentation (alone: DISRPT's "
                        "boundary P/R/F1 over tokens, of .tok/.conllu files or of trees' EDUs; all leaves it out)")
    p.add_argument("--average", **comma_list(AVERAGES), default=None, metavar="AVERAGE[,AVERAGE...]",
                   help="micro (pooled), macro (mean of per-document F1), dplp (DPLP's per-document P/R), all, "
                        "or a comma list; every metric and average is scored from one read of the files "
                        "(default: micro)")
    p.add_argument("--no-sentence-initial", action="store_true",
                   help="segmentation: sentence-initial tokens are no boundary on either side (the DISRPT scorer's "
                        "-nb; needs sentences: .conllu files, or trees whose EDUs carry sentence numbers)")
    add_label_option(p, default="raw")
    p.set_defaults(labels=None)  # raw unless given; None tells --preset that no --labels was given
    p.add_argument("--preset", choices=PRESETS, default=None,
                   help="a peer's scoring procedure by name (docs/presets.md): it sets metric, average, label map, "
                        "binarization, span keying and the peer's quirks, each replaced by the option given; the "
                        "signature shows them and preset=NAME (rst-eval: the same numbers as --compat rst-eval)")
    p.add_argument("--binarize", choices=(*EVAL_BINARIZATIONS, RST_EVAL), default=None,
                   help="binarization of gold and predictions (default: the metric's: right-heavy for rst-parseval "
                        "and parseval, none for dependency, whose chain encoding binarizes in its own way); "
                        "rst-eval: the reference's, the same as --compat rst-eval (as draw and convert spell it)")
    p.add_argument("--dep-encoding", type=dep_encoding, default="chain", metavar="chain|tree|GOLD,PRED",
                   help="dependency: how n-ary nodes become dependencies, chain (binarized the reference's way, the "
                        "default) or tree (a star); GOLD,PRED encodes the two sides differently (tree,chain is "
                        "showdown.py's default)")
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
    p.add_argument("--span-key", choices=SPAN_KEYS, default=None,
                   help="with --edus aligned: key spans by their first and last character (chars, the default) or "
                        "by the last character of their first and of their last EDU (first-edu-end: DMRST's and "
                        "isanlp_rst's token keying); shown in the signature when not chars")
    p.add_argument("--exclude-single-edu", action="store_true", help="leave 1-EDU documents out of the averages")
    p.add_argument("--skip-errors", action="store_true",
                   help="drop unreadable documents (listed as warnings) instead of failing")
    p.add_argument("--from", dest="in_format", metavar="KEY", default=None,
                   help="format of gold and predictions, or 'auto' to detect it (default: by extension); "
                        "--gold-format and --pred-format set one side")
    p.add_argument("--gold-format", metavar="KEY", default=None, help="gold format (default: by extension)")
    p.add_argument("--pred-format", metavar="KEY", default=None,
                   help="prediction format key, or 'auto' to detect it (default: by extension)")
    p.add_argument("--doc-map", metavar="FILE", default=None,
                   help="native file name -> document id map, for formats whose files do not name the document")
    add_encoding_option(p)
    p.add_argument("--names", metavar="A,B,...", default=None, help="system names for the PREDs")
    p.add_argument("--ci", type=open_unit_interval, metavar="LEVEL", default=None,
                   help="bootstrap confidence intervals at this level, e.g. 0.95 (documents resampled)")
    p.add_argument("--n-bootstrap", type=positive_int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--n-trials", type=positive_int, default=10000,
                   help="approximate randomization trials (default 10000)")
    p.add_argument("--seed", type=seed, default=12345, help="seed of resampling and randomization")
    p.add_argument("--per-relation", action="store_true", help="add per-relation scores and a confusion summary")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format")
    add_output_option(p, "the scores")
    add_alias(p, "--threads", "jobs", type=positive_int, metavar="N")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="processes reading the files, each sending back the documents prepared for scoring "
                        "(default: 1 under 200 files or on one core, else every usable core; "
                        "with --edus aligned, 1 on up to 2 cores); the output does not depend on it")
    p.add_argument("--digits", type=nonnegative_int, default=2, help="decimals in text, Markdown and LaTeX output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.preds):
        raise RSTKitError(f"--names gives {len(names)} names for {len(args.preds)} prediction sets")
    metrics, averages = args.metric or ["parseval"], args.average or ["micro"]
    if args.binarize == RST_EVAL:  # the reference's binarization comes with its compatibility mode
        args.compat, args.binarize = RST_EVAL, None
    if args.preset is not None:
        return _run(args, names, _preset_configs(args))
    settings = {"labels": args.labels or "raw", "binarize": args.binarize, "missing": args.missing, "edus": args.edus,
                "lenient": args.lenient, "exclude_single_edu": args.exclude_single_edu,
                "dep_encoding": args.dep_encoding,
                "sentence_initial": "dropped" if args.no_sentence_initial else "counted",
                "statistics": Statistics.for_run(args.ci, args.n_bootstrap, args.n_trials, args.seed,
                                              paired=len(args.preds) > 1)}
    if args.span_key is not None:
        settings["span_key"] = args.span_key
    if args.compat != RST_EVAL:
        settings["unknown_labels"] = "keep" if args.keep_unknown_labels else "error"
    make = EvalConfig.rst_eval if args.compat == RST_EVAL else EvalConfig
    return _run(args, names, [make(metric=metric, average=average, **settings) for metric in metrics
                              for average in averages])


def _preset_configs(args: argparse.Namespace) -> list[EvalConfig]:
    """The configurations of ``--preset``: its settings, each replaced by the option given (``--metric``,
    ``--average``, ``--labels``, ``--binarize``, ``--span-key``)."""
    if args.compat is not None:
        raise RSTKitError("--preset and --compat do not go together (--preset rst-eval is --compat rst-eval)")
    overrides = {"missing": args.missing, "edus": args.edus, "lenient": args.lenient,
                 "exclude_single_edu": args.exclude_single_edu, "dep_encoding": args.dep_encoding,
                 "statistics": Statistics.for_run(args.ci, args.n_bootstrap, args.n_trials, args.seed,
                                               paired=len(args.preds) > 1)}
    for name, value in (("labels", args.labels), ("binarize", args.binarize), ("span_key", args.span_key)):
        if value is not None:
            overrides[name] = value
    if args.keep_unknown_labels:
        overrides["unknown_labels"] = "keep"
    preset = preset_settings(args.preset, **overrides)
    return [EvalConfig(**{**preset, "metric": metric, "average": average})
            for metric in args.metric or [preset["metric"]] for average in args.average or [preset["average"]]]


def _run(args: argparse.Namespace, names: list[str] | None, configs: list[EvalConfig]) -> int:
    paths = [args.gold, *args.preds]
    one_stdin(paths)
    check_result_target(args.output, paths, report_name("eval", args.format))
    gold_format = stdin_format(args.gold, args.gold_format or args.in_format)
    with contextlib.ExitStack() as files, warnings.catch_warnings(record=True) as caught:  # each printed once,
        warnings.simplefilter("always", RSTKitWarning)                                   # even when shown before
        gold = files.enter_context(stdin_as_file(args.gold, gold_format))
        preds = [files.enter_context(stdin_as_file(p, stdin_format(p, args.pred_format or args.in_format)))
                 for p in args.preds]
        pred_formats = {detected_format(read, stdin_format(p, args.pred_format or args.in_format), p)
                        for read, p in zip(preds, args.preds)}
        try:
            result = evaluate(gold, preds, configs, names or _names(args.preds),
                              gold_format=detected_format(gold, gold_format, args.gold),
                              pred_format=pred_formats.pop() if len(pred_formats) == 1 else "auto",
                              doc_map=args.doc_map, skip_errors=args.skip_errors, jobs=args.jobs,
                              encoding=args.encoding)
        except MissingDocumentError as exc:
            if STREAM not in args.preds:
                raise
            raise MissingDocumentError(f"{exc} (standard input is one file: a document it holds is named by the "
                                       f"format, else {STDIN_NAME!r}; for one document give GOLD as one file)",
                                       fixes=exc.fixes) from None
        finally:
            for message in dict.fromkeys(str(w.message) for w in caught):
                warn(message)
    write_result(result.render(args.format, args.digits, per_relation=args.per_relation), args.output,
                 report_name("eval", args.format))
    return 0


def _names(preds: list[str]) -> list[str] | None:
    """System names when a prediction set comes from standard input (``stdin``); else the default."""
    return default_names([STDIN_NAME if p == STREAM else p for p in preds]) if STREAM in preds else None
