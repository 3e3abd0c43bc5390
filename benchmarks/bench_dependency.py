"""Speed of the dependency conversion (``rstkit.dependency.dependency_records``), chain and tree.

Run: ``python benchmarks/bench_dependency.py [--gum DIR] [--docs N] [--runs R]``. Times, best of R
runs, the conversion alone (trees read beforehand) of every GUM ``lisp_nary`` tree (281 documents;
``GENTLE_syllabus_techtonica`` left out under chain, where it is an error) and of N synthetic
documents (``tests/support/synthetic.py``: n-ary gold trees, mean about 55 EDUs), with and without the
``rstdt18`` relabeller.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from rstkit.corpus import read_documents  # noqa: E402
from rstkit.dependency import dependency_records  # noqa: E402
from rstkit.errors import RSTKitWarning  # noqa: E402
from rstkit.labels import get_label_map  # noqa: E402
from tests.support import synthetic  # noqa: E402


def best_of(runs: int, trees: list, encoding: str, relabel) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for tree in trees:
            dependency_records(tree, encoding, relabel=relabel)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gum", type=Path, default=PROJECT.parent / "shared" / "corpora" / "gum")
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    corpora = {}
    if (args.gum / "lisp_nary").is_dir():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RSTKitWarning)  # one repaired extent
            corpora["GUM lisp_nary"] = list(read_documents(args.gum / "lisp_nary", lenient=True).values())
    gold, _ = synthetic.corpus(args.docs, seed=1)
    corpora[f"synthetic x{args.docs}"] = list(gold.values())
    rstdt18 = get_label_map("rstdt18").relabeller("keep")
    for name, trees in corpora.items():
        for encoding in ("chain", "tree"):
            usable = [t for t in trees if encoding == "tree" or t.doc_id != "GENTLE_syllabus_techtonica"]
            edus = sum(t.n_edus for t in usable)
            for label_name, relabel in (("raw", None), ("rstdt18", rstdt18)):
                seconds = best_of(args.runs, usable, encoding, relabel)
                print(f"{name:18} {encoding:5} {label_name:7} {len(usable):6} docs {edus:8} EDUs "
                      f"{seconds:8.4f} s  {1e6 * seconds / edus:5.2f} us/EDU")


if __name__ == "__main__":
    main()
