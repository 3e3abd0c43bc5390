"""``rstkit eval GOLD PRED [PRED2 ...]``: score predictions against gold trees, with a signature."""
from __future__ import annotations

import argparse
import contextlib
import warnings
from pathlib import Path
from typing import Any

from ..errors import ManyErrors, MissingDocumentError, RSTKitError, RSTKitWarning
from ..evaluation import default_names, evaluate
from ..formats.disrpt import is_disrpt_input
from ..metrics import EvalConfig
from ..metrics.config import DEFAULT_STATISTICS, Statistics, setting_defaults
from ..metrics.presets import PRESET_SETTINGS
from ..metrics.registry import ALL_METRICS, FAMILIES, METRICS
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
    add_encoding_option,
    add_label_option,
    add_output_option,
    add_split_option,
    check_result_target,
    check_split,
    comma_list,
    dep_encoding,
    detected_format,
    format_fix,
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
    p.add_argument("gold", help="gold file or directory (documents matched by id), or with --split a corpus directory; "
                                "-: one file on standard input")
    p.add_argument("preds", nargs="+", metavar="PRED",
                   help="prediction file(s) or directories; with several, the first is the baseline")
    p.add_argument("--metric", **comma_list(ALL_METRICS, every=METRICS), default=None, metavar="METRIC[,METRIC...]",
                   help="rst-parseval (Marcu), parseval (original, on attachment decisions), dependency (Morey et "
                        "al. 2018: one head-ordered dependency per EDU), all (every family), or a comma list "
                        "of them, e.g. rst-parseval,parseval (default: parseval); segmentation (alone: DISRPT's "
                        "boundary P/R/F1 over tokens, of .tok/.conllu files or of trees' EDUs; all leaves it out); "
                        "secondary-edges and signals (eRST's, keyed by EDU extents: docs/metrics/erst.md; all leaves "
                        "them out)")
    p.add_argument("--average", **comma_list(AVERAGES), default=None, metavar="AVERAGE[,AVERAGE...]",
                   help="micro (pooled), macro (mean of per-document F1), dplp (DPLP's per-document P/R), all, "
                        "or a comma list; every metric and average is scored from one read of the files "
                        "(default: micro)")
    p.add_argument("--no-sentence-initial", action="store_true",
                   help="segmentation: sentence-initial tokens are no boundary on either side (the DISRPT scorer's "
                        "-nb; needs sentences: .conllu files, or trees whose EDUs carry sentence numbers)")
    add_label_option(p, default="raw")
    p.set_defaults(labels=None, unknown_labels=None)  # raw, error unless given; None tells --preset they were not
    p.add_argument("--preset", choices=PRESETS, default=None,
                   help="a peer's scoring procedure by name (docs/presets.md): it sets metric, average, label map, "
                        "binarization, span keying and the peer's quirks, each replaced by the option given; the "
                        "signature shows them and preset=NAME (rst-eval: the same numbers as --compat rst-eval)")
    p.add_argument("--binarize", choices=(*EVAL_BINARIZATIONS, RST_EVAL), default=None,
                   help="binarization of gold and predictions (default: the metric's: right-heavy for rst-parseval "
                        "and parseval, none for dependency, whose chain encoding binarizes in its own way); "
                        "rst-eval: the reference's, the same as --compat rst-eval (as draw and convert spell it)")
    p.add_argument("--dep-encoding", type=dep_encoding, default=None, metavar="chain|tree|GOLD,PRED",
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
    add_split_option(p, "GOLD", "the gold (rstkit eval GUM_CHECKOUT PRED --split test scores the GUM test "
                                "documents, as a directory of copies of them would be scored)")
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
    p.add_argument("--n-bootstrap", type=positive_int, default=None,
                   help="bootstrap resamples, of --ci and of the paired tests (default "
                        f"{DEFAULT_STATISTICS.n_bootstrap})")
    p.add_argument("--n-trials", type=positive_int, default=None,
                   help=f"approximate randomization trials of the paired tests, with several PREDs (default "
                        f"{DEFAULT_STATISTICS.n_trials})")
    p.add_argument("--seed", type=seed, default=None,
                   help=f"seed of resampling and randomization (default: {DEFAULT_STATISTICS.seed})")
    p.add_argument("--per-relation", action="store_true", help="add per-relation scores and a confusion summary")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format")
    add_output_option(p, "the scores")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="processes reading the files, each sending back the documents prepared for scoring "
                        "(default: 1 under 200 files or on one core, else every usable core; "
                        "with --edus aligned, 1 on up to 2 cores); the output does not depend on it")
    p.add_argument("--digits", type=nonnegative_int, default=None,
                   help=f"decimals in text, Markdown and LaTeX output (default: {DEFAULT_DIGITS})")
    p.set_defaults(run=run)


#: decimals of the text, Markdown and LaTeX tables when --digits is not given
DEFAULT_DIGITS = 2
#: the output formats that print scores with --digits decimals (JSON and CSV print them unrounded)
ROUNDED_FORMATS = ("text", "markdown", "latex")


def run(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if names is not None and len(names) != len(args.preds):
        raise RSTKitError(f"--names gives {len(names)} names for {len(args.preds)} prediction sets")
    return _run(args, names, eval_configs(args))


def eval_configs(args: argparse.Namespace) -> list[EvalConfig]:
    """The configurations the options ask for, every metric by every average. Every option given
    reaches each of them or is an error naming it: with ``--preset``, its settings, each replaced by
    the option given and completed by the options it does not set; an option the preset's settings
    cannot go with, or one that changes nothing here, is an error naming both."""
    given = _given_settings(args)
    if args.span_key is not None and args.edus != "aligned":
        raise RSTKitError(f"--span-key {args.span_key} needs --edus aligned (with gold EDUs both keyings give the "
                          "same scores)")
    unaligned = [metric for metric in args.metric or () if not FAMILIES[metric].aligned_edus]
    if unaligned and args.edus == "aligned":
        raise RSTKitError(f"--metric {unaligned[0]} cannot be scored with --edus aligned (it keys what it scores "
                          "by the gold's EDUs); score it with --edus gold")
    if args.preset is None:
        configs = _plain_configs(args, given)
    else:
        configs = _preset_configs(args, given)
    _check_used(args, configs)
    return configs


def _given_settings(args: argparse.Namespace) -> dict[str, tuple[str, Any]]:
    """The settings the options give, each with the option as typed (``--binarize rst-eval``): those a
    preset may set only where the option was given, the others always (no preset sets them)."""
    given: dict[str, tuple[str, Any]] = {
        "missing": (f"--missing {args.missing}", args.missing), "edus": (f"--edus {args.edus}", args.edus),
        "lenient": ("--lenient", args.lenient), "exclude_single_edu": ("--exclude-single-edu", args.exclude_single_edu),
        "dep_encoding": (f"--dep-encoding {args.dep_encoding}", args.dep_encoding or "chain"),
        "sentence_initial": ("--no-sentence-initial", "dropped" if args.no_sentence_initial else "counted"),
        "statistics": ("--ci, --n-bootstrap, --n-trials, --seed", _statistics(args))}
    if args.labels is not None:
        given["labels"] = (f"--labels {args.labels}", args.labels)
    if args.unknown_labels is not None:
        given["unknown_labels"] = ("--keep-unknown-labels", args.unknown_labels)
    if args.binarize == RST_EVAL:  # the reference's binarization comes with its compatibility mode
        given["compat"] = (f"--binarize {RST_EVAL}", RST_EVAL)
    elif args.binarize is not None:
        given["binarize"] = (f"--binarize {args.binarize}", args.binarize)
    if args.compat is not None:
        given["compat"] = (f"--compat {args.compat}", args.compat)
    if args.span_key is not None:
        given["span_key"] = (f"--span-key {args.span_key}", args.span_key)
    return given


def _statistics(args: argparse.Namespace) -> Statistics:
    """The resampling settings of ``--ci`` and of the paired tests (several PREDs), defaults where not given."""
    n_bootstrap, n_trials, seed = DEFAULT_STATISTICS.filled()[1:]
    return Statistics.for_run(args.ci, _or(args.n_bootstrap, n_bootstrap), _or(args.n_trials, n_trials),
                              _or(args.seed, seed), paired=len(args.preds) > 1)


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _plain_configs(args: argparse.Namespace, given: dict[str, tuple[str, Any]]) -> list[EvalConfig]:
    settings = {name: value for name, (_, value) in given.items()}  # rst-eval keeps unknown labels unless told
    return [EvalConfig(metric=metric, average=average, **_own(settings, metric))
            for metric in args.metric or ["parseval"] for average in args.average or ["micro"]]


def _own(settings: dict[str, Any], metric: str) -> dict[str, Any]:
    """``settings`` less the other metric families' own (``dep_encoding`` for a dependency configuration
    only): each configuration holds what its signature pins, as :meth:`EvalConfig.from_signature` reads it."""
    others = {name for family in FAMILIES.values() if family.name != metric for name in family.own_settings}
    return {name: value for name, value in settings.items() if name not in others}


def _preset_configs(args: argparse.Namespace, given: dict[str, tuple[str, Any]]) -> list[EvalConfig]:
    """The configurations of ``--preset``: its settings, each replaced by the option given (``--metric``,
    ``--average``, ``--labels``, ``--binarize``, ``--span-key``, ``--keep-unknown-labels``), with the
    settings it does not set from the options (``--no-sentence-initial``, ``--edus``, ``--lenient``...)."""
    own = PRESET_SETTINGS[args.preset]
    if "compat" in given and given["compat"][1] != own.get("compat"):
        raise RSTKitError(f"--preset {args.preset} and {given['compat'][0]} do not go together "
                          f"(--preset {RST_EVAL} is --compat {RST_EVAL})")
    overrides = {name: value for name, (_, value) in given.items()}
    configs = []
    for metric in args.metric or [own["metric"]]:
        for average in args.average or [own["average"]]:
            chosen = {**_own(overrides, metric), "metric": metric, "average": average}
            try:
                configs.append(EvalConfig.preset(args.preset, **chosen))
            except RSTKitError as exc:
                options = {**given, **({"metric": (f"--metric {metric}", metric)} if args.metric else {}),
                           **({"average": (f"--average {average}", average)} if args.average else {})}
                raise RSTKitError(f"--preset {args.preset} and {_conflicting(args.preset, options)} do not go "
                                  f"together: {exc.message}") from None
    return configs


def _conflicting(preset: str, options: dict[str, tuple[str, Any]]) -> str:
    """The options (as typed) that the preset's settings cannot go with: each that fails with the preset
    alone, else every option given (the combination fails)."""
    typed = {name: option for name, (option, value) in options.items() if _is_given(name, value)}
    alone = [option for name, option in typed.items()
             if not _valid(preset, {name: options[name][1]})]
    return ", ".join(alone or typed.values())


def _is_given(name: str, value: Any) -> bool:
    """Whether an option gave setting ``name``: the settings that a preset may set are in the options only
    where typed; the others always, typed where they differ from EvalConfig's defaults."""
    return name not in _ALWAYS_GIVEN or value != setting_defaults()[name]


#: the settings the options always give (no preset sets them), by :func:`_given_settings`
_ALWAYS_GIVEN = ("missing", "edus", "lenient", "exclude_single_edu", "dep_encoding", "sentence_initial", "statistics")


def _valid(preset: str, overrides: dict[str, Any]) -> bool:
    try:
        EvalConfig.preset(preset, **overrides)
    except RSTKitError:
        return False
    return True


def _check_used(args: argparse.Namespace, configs: list[EvalConfig]) -> None:
    """Refuse an option that changes nothing in this run (naming it and why), as an option silently
    ignored would leave a score that is not what was asked for."""
    metrics = {config.metric for config in configs}
    if metrics == {"segmentation"}:
        for option, given in (("--binarize", args.binarize), ("--labels", args.labels), ("--compat", args.compat),
                              ("--keep-unknown-labels", args.unknown_labels)):
            if given:
                raise RSTKitError(f"{option} does not apply to --metric segmentation, which compares EDU "
                                  "boundaries (no tree shape, no relation)")
    if args.no_sentence_initial and "segmentation" not in metrics:
        raise RSTKitError(f"--no-sentence-initial applies to --metric segmentation only (boundaries of "
                          f"sentence-initial tokens), not to {', '.join(sorted(metrics))}")
    if args.dep_encoding is not None and "dependency" not in metrics:
        raise RSTKitError(f"--dep-encoding applies to --metric dependency only, not to {', '.join(sorted(metrics))}")
    paired = len(args.preds) > 1
    if args.n_trials is not None and not paired:
        raise RSTKitError("--n-trials sets the trials of the paired tests, which need several PREDs (one is given)")
    if args.n_bootstrap is not None and args.ci is None and not paired:
        raise RSTKitError("--n-bootstrap sets the resamples of --ci intervals and of the paired tests (several "
                          "PREDs): neither is asked for")
    if args.seed is not None and args.ci is None and not paired:
        raise RSTKitError("--seed seeds the resampling of --ci intervals and of the paired tests (several PREDs): "
                          "neither is asked for")
    if args.digits is not None and args.format not in ROUNDED_FORMATS:
        raise RSTKitError(f"--digits rounds the scores of --format {', '.join(ROUNDED_FORMATS)}; --format "
                          f"{args.format} prints them unrounded")


def _run(args: argparse.Namespace, names: list[str] | None, configs: list[EvalConfig]) -> int:
    paths = [args.gold, *args.preds]
    one_stdin(paths)
    check_split(args.gold, args.split, "GOLD")
    check_result_target(args.output, paths, report_name("eval", args.format))
    gold_format = stdin_format(args.gold, args.gold_format or args.in_format)
    with contextlib.ExitStack() as files, warnings.catch_warnings(record=True) as caught:  # each printed once,
        warnings.simplefilter("always", RSTKitWarning)                                   # even when shown before
        gold = files.enter_context(stdin_as_file(args.gold, gold_format))
        preds = [files.enter_context(stdin_as_file(p, stdin_format(p, args.pred_format or args.in_format)))
                 for p in args.preds]
        pred_formats = {detected_format(read, stdin_format(p, args.pred_format or args.in_format), p, "pred_format")
                        for read, p in zip(preds, args.preds)}
        if args.doc_map and all(is_disrpt_input(pred) for pred in preds):
            raise RSTKitError("--doc-map names the documents of tree files; DISRPT files name theirs "
                              "(# newdoc id)")
        try:
            result = evaluate(gold, preds, configs, names or _names(args.preds),
                              gold_format=detected_format(gold, gold_format, args.gold, "gold_format"),
                              pred_format=pred_formats.pop() if len(pred_formats) == 1 else "auto",
                              doc_map=args.doc_map, skip_errors=args.skip_errors, jobs=args.jobs,
                              encoding=args.encoding, split=args.split)
        except MissingDocumentError as exc:
            if STREAM not in args.preds:
                raise
            raise MissingDocumentError(f"{exc} (standard input is one file: a document it holds is named by the "
                                       f"format, else {STDIN_NAME!r}; for one document give GOLD as one file)",
                                       fixes=exc.fixes) from None
        except RSTKitError as exc:  # a format to name is the format of the side the file is on
            raise _sided(exc, gold, preds) from None
        finally:
            for message in dict.fromkeys(str(w.message) for w in caught):
                warn(message)
    digits = _or(args.digits, DEFAULT_DIGITS)
    write_result(result.render(args.format, digits, per_relation=args.per_relation), args.output,
                 report_name("eval", args.format))
    return 0


def _sided(error: RSTKitError, gold: str, preds: list[str]) -> RSTKitError:
    """``error`` with a fix of naming a format said as the option of the side its file is on (``--gold-format``
    for a file of GOLD, ``--pred-format`` for one of a PRED), where its file tells."""
    for each in error.errors if isinstance(error, ManyErrors) else [error]:
        if each.path is not None and _within(each.path, gold):
            format_fix(each, "gold_format")
        elif each.path is not None and any(_within(each.path, pred) for pred in preds):
            format_fix(each, "pred_format")
    if isinstance(error, ManyErrors):
        error.fixes = tuple(dict.fromkeys(fix for each in error.errors for fix in each.fixes))
    return error


def _within(path: str, source: str) -> bool:
    """Whether ``path`` is the file ``source`` or in the directory ``source``."""
    return Path(path) == Path(source) or Path(source) in Path(path).parents


def _names(preds: list[str]) -> list[str] | None:
    """System names when a prediction set comes from standard input (``stdin``); else the default."""
    return default_names([STDIN_NAME if p == STREAM else p for p in preds]) if STREAM in preds else None
