"""``rstkit discoeval --corpus gum|rstdt|DIR --encoder bow|minilm|random|majority|MODULE:FN``:
the DiscoEval RST task (Chen, Chu & Gimpel 2019) for any RST corpus and sentence encoder.

One instance per internal node of the right-heavy-binarized tree (nuclearity pair and
coarse class, e.g. NS-Elaboration); subtrees are the mean of their EDU vectors; a
multinomial logistic regression on [l, r, l*r, |l-r|] is fitted on train, selected on dev,
and scored on dev and test.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from .. import cache
from ..corpus import check_input
from ..labels import label_map_names
from ..output import check_target
from ..probe.classifier import DEFAULT_C_GRID, ClassifierConfig
from ..probe.discoeval import evaluate_encoder
from ..probe.encoders import BUILTIN_ENCODERS, get_encoder
from ..probe.report import to_json, to_text
from .common import (
    add_output_option,
    check_result_target,
    positive_float,
    positive_int,
    refuse_unused,
    remember_defaults,
    report_name,
    seed,
    write_result,
)


def _c_grid(text: str) -> tuple[float, ...]:
    """argparse type: comma-separated numbers, each finite and > 0."""
    return tuple(positive_float(c.strip()) for c in text.split(","))


def add_parser(sub) -> None:
    p = sub.add_parser("discoeval", help="probe a sentence encoder with the DiscoEval RST task",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", required=True, metavar="gum|rstdt|DIR",
                   help="gum (the GUM checkout in $RSTKIT_GUM), rstdt (the RST-DT release in $RSTKIT_RSTDT), "
                        "or a path: a GUM checkout, an RST-DT release, or a directory of trees with a "
                        "splits.tsv naming train, dev and test")
    p.add_argument("--encoder", required=True, metavar="NAME",
                   help=f"built in: {', '.join(BUILTIN_ENCODERS)}; or a function MODULE:FN mapping a list "
                        "of strings to a 2-D float array")
    p.add_argument("--labels", choices=label_map_names(), default=None,
                   help="relation class map (default: gum for GUM, rstdt18 for RST-DT, raw otherwise)")
    p.add_argument("--format", dest="output", choices=["text", "json"], default="text", help="output format")
    add_output_option(p, "the scores", dest="output_file")
    p.add_argument("--seed", type=seed, default=1, help="classifier seed (default: 1)")
    p.add_argument("--c-grid", type=_c_grid, default=DEFAULT_C_GRID, metavar="C,C,...",
                   help="inverse regularisation strengths tried, the best on dev kept "
                        f"(default: {','.join(f'{c:g}' for c in DEFAULT_C_GRID)})")
    p.add_argument("--include-masked", action="store_true",
                   help="keep documents whose text is masked or absent (GUM's reddit documents)")
    p.add_argument("--cache-dir", default=None,
                   help=f"encoding cache (default: $RSTKIT_CACHE/encodings, else {cache.cache_dir('encodings')})")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the encoding cache")
    p.add_argument("--batch-size", type=positive_int, default=64, help="encoding batch size for minilm (default: 64)")
    p.add_argument("--device", default=None, help="torch device for minilm (default: cpu)")
    p.set_defaults(run=run)
    remember_defaults(p)


def run(args: argparse.Namespace) -> int:
    check_result_target(args.output_file, [args.corpus], report_name("discoeval", args.output))
    if args.encoder != "minilm":
        refuse_unused(args, ("batch_size", "device"), f"applies to the minilm encoder, not to {args.encoder}")
    if args.no_cache:
        refuse_unused(args, ("cache_dir",), "is where encodings are cached, and --no-cache caches none")
    encoder = get_encoder(args.encoder, batch_size=args.batch_size, device=args.device)
    if encoder is None or not encoder.cacheable:
        refuse_unused(args, ("cache_dir", "no_cache"), f"concerns the encoding cache, and {args.encoder}'s "
                                                       "encodings are not cached")
    cache_dir = None if args.no_cache else (args.cache_dir or cache.cache_dir("encodings"))
    if cache_dir is not None and encoder is not None and encoder.cacheable:
        check_target(Path(cache_dir), directory=True)
    if Path(args.corpus).exists():
        check_input(args.corpus)
    result = evaluate_encoder(args.corpus, encoder, labels=args.labels, include_masked=args.include_masked,
                              config=ClassifierConfig(c_grid=args.c_grid, seed=args.seed), cache_dir=cache_dir)
    write_result(to_json(result) if args.output == "json" else to_text(result), args.output_file,
                 report_name("discoeval", args.output))
    return 0
