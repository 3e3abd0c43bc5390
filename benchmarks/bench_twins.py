"""The fast paths that have a slower twin, each timed against the path it shortcuts.

rstkit keeps a fast path beside a slower one only where this shows the need (issue 34); each kept
path says its numbers in its module's docstring. Times are CPU seconds (``time.process_time``, best of
``--runs``), so that a busy machine changes them little:

* ``.dis`` (``formats/dis.py``): ``rstkit.evaluate(gold/, pred/)`` over GUM's well-formed lisp_nary and
  lisp_binary pairs, with the direct path and with every file read through the grammar;
* ``transform.prepared_walk``: RST-Parseval and Parseval of the same trees, read beforehand, with the
  walk and the long way (relabel, binarize, extract);
* the forest path (``formats/_dis_direct.direct_forest``, ``dependency.forest_dependencies``): what a reading
  process makes of chunks of the same files for the dependency family, from their texts at once
  (``metrics.prepared.Preparer``) and from their trees (``prepare_document``);
* the forest path's bulk reading (``formats/_dis_bulk.bulk_nodes``, issue #37): ``direct_forest`` on the same
  files' texts in chunks, with the bulk reading and with every file left to the regular-expression pass;
* ``chain`` (``dependency.py``): the conversion with its ``right_mixed`` pass inside the walk, and the
  tree binarized to a binary tree first (``transform.binarize``), converted as ``tree``;
* ``.rs4`` (``formats/rs3.py``): GUM's files with the scanner, and through ElementTree alone;
* ``.rsd`` (``formats/rsd.py``): GUM's files with the plain path, and through the graph alone;
* DISRPT (``formats/disrpt.py``, issue #37): one generated ``.tok`` file (``make_disrpt.py``) in bulk and
  line by line.

Run: ``python benchmarks/bench_twins.py [--gum DIR] [--runs R] [--tokens N]``.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "benchmarks"))

from make_disrpt import make_disrpt  # noqa: E402

import rstkit  # noqa: E402
from rstkit import EvalConfig  # noqa: E402
from rstkit.corpus import files, read_documents  # noqa: E402
from rstkit.dependency import dependency_records  # noqa: E402
from rstkit.errors import RSTKitError, RSTKitWarning  # noqa: E402
from rstkit.formats import (  # noqa: E402
    _dis_direct,
    dis,
    disrpt,
    read_text,
    read_text_utf8,
    rs3,
    rsd,
)
from rstkit.metrics import rst_parseval  # noqa: E402
from rstkit.metrics.prepared import PreparationSpec, PreparedDocument, Preparer, prepare_document  # noqa: E402
from rstkit.transform import binarize  # noqa: E402
from rstkit.tree import RSTTree  # noqa: E402


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def show(what: str, fast: float, slow: float) -> None:
    print(f"{what:64} {fast:7.3f} s  {slow:7.3f} s  {slow / fast:5.1f}x")


def well_formed_pairs(gum: Path, into: Path) -> tuple[Path, Path]:
    """gold/ (lisp_nary) and pred/ (lisp_binary) copies of GUM's documents that read without an error."""
    gold, pred = into / "gold", into / "pred"
    gold.mkdir()
    pred.mkdir()
    for path in sorted((gum / "lisp_nary").glob("*.dis")):
        try:
            dis.loads_dis(read_text(path), path)
        except RSTKitError:
            continue
        shutil.copy(path, gold / path.name)
        shutil.copy(gum / "lisp_binary" / path.name, pred / path.name)
    return gold, pred


def to_binary(tree: RSTTree) -> RSTTree:
    """``right_mixed`` passes until the tree is binary (chain without bug B1)."""
    while not tree.is_binary():
        tree = binarize(tree, "right_mixed")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gum", type=Path, default=PROJECT.parent / "shared" / "corpora" / "gum")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=500_000, help="tokens of the DISRPT file")
    args = parser.parse_args()
    warnings.simplefilter("ignore", RSTKitWarning)
    runs = args.runs
    print(f"{'':64} {'fast':>9}  {'slow':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        gold, pred = well_formed_pairs(args.gum, Path(tmp))
        n = len(list(gold.iterdir()))

        def evaluate() -> object:
            return rstkit.evaluate(gold, pred, jobs=1)

        fast = best(runs, evaluate)
        direct = dis.direct
        dis.direct = lambda text: None
        try:
            slow = best(1, evaluate)
        finally:
            dis.direct = direct
        show(f".dis: evaluate {n} pairs, direct path / grammar", fast, slow)

        gold_trees, pred_trees = read_documents(gold), read_documents(pred)
        configs = [EvalConfig(metric="rst-parseval"), EvalConfig(metric="parseval")]

        def score() -> object:
            return rstkit.evaluate(gold_trees, pred_trees, configs, jobs=1)

        fast = best(runs, score)
        walk = rst_parseval.prepared_walk
        rst_parseval.prepared_walk = lambda *args, **kwargs: None
        try:
            slow = best(runs, score)
        finally:
            rst_parseval.prepared_walk = walk
        show("RST-Parseval + Parseval of trees read: prepared_walk / long way", fast, slow)

        # what a reading process does with a chunk of .dis files for the dependency family
        spec = PreparationSpec((EvalConfig(metric="dependency"),), True)
        paths = [*sorted(gold.iterdir()), *sorted(pred.iterdir())]
        chunks = [paths[i:i + 32] for i in range(0, len(paths), 32)]

        def prepared(result: Callable[[RSTTree], PreparedDocument]) -> object:
            return [files._read_some((chunk, None, False, True, result, {})) for chunk in chunks]

        show(f"dependency rows of {len(paths)} .dis files: forest path / trees",
             best(runs, lambda: prepared(Preparer(spec))),
             best(runs, lambda: prepared(partial(prepare_document, spec=spec))))

        texts = [read_text(path) for path in paths]
        text_chunks = [texts[i:i + 62] for i in range(0, len(texts), 62)]
        fast = best(runs, lambda: [_dis_direct.direct_forest(chunk) for chunk in text_chunks])
        bulk = _dis_direct.bulk_nodes
        _dis_direct.bulk_nodes = lambda texts, encoded=None: bulk(["\x01"] * len(texts))  # each file declined
        try:
            slow = best(runs, lambda: [_dis_direct.direct_forest(chunk) for chunk in text_chunks])
        finally:
            _dis_direct.bulk_nodes = bulk
        show(f"forest nodes of {len(texts)} .dis files: bulk / regular expression", fast, slow)

        trees = [*gold_trees.values(), *pred_trees.values()]
        show(f"chain of {len(trees)} trees: in the walk / binarized first",
             best(runs, lambda: [dependency_records(t, "chain") for t in trees]),
             best(runs, lambda: [dependency_records(to_binary(t), "tree") for t in trees]))

        rs4 = [read_text(p) for p in sorted((args.gum / "rstweb").glob("*.rs4"))]
        fast = best(runs, lambda: [rs3.loads_rs3(text, "f.rs4") for text in rs4])
        scan = rs3.scan
        rs3.scan = lambda text: None
        try:
            slow = best(runs, lambda: [rs3.loads_rs3(text, "f.rs4") for text in rs4])
        finally:
            rs3.scan = scan
        show(f".rs4: {len(rs4)} files, scanner / ElementTree", fast, slow)

        rsds = [read_text(p) for p in sorted((args.gum / "dependencies").glob("*.rsd"))]
        show(f".rsd: {len(rsds)} files, plain path / graph",
             best(runs, lambda: [rsd.loads_rsd(text, "f.rsd") for text in rsds]),
             best(runs, lambda: [rsd._read_with_graph(text, "f.rsd", "f", True) for text in rsds]))

        make_disrpt(Path(tmp) / "disrpt", docs=1, tokens=args.tokens)
        tok = next((Path(tmp) / "disrpt").glob("*.tok"))
        text, data = read_text_utf8(tok)
        show(f"DISRPT: {tok.stat().st_size / 1e6:.0f} MB .tok, bulk / line by line",
             best(runs, lambda: disrpt._scan(data, str(tok), False)),
             best(runs, lambda: disrpt._read_lines(text.split("\n"), str(tok), False)))


if __name__ == "__main__":
    main()
