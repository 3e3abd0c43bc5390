"""The reference's own code (educe, rst-eval) scoring a folder of ``.dis`` predictions, for bench_references.py.

Nothing of the reference is copied here: its checkouts are put on ``sys.path`` and its functions are
called as its own scripts call them. Prints JSON on standard output.

* ``constituency --rst-eval DIR GOLD PRED``: rst-eval's ``evals/showdown.py`` path, with the educe that
  rst-eval holds (``DIR/evals/educe``, the copy evaluation.md names): trees relabelled with
  ``RstRelationConverter(rst_112to18).convert_tree``, the gold binarized with ``_binarize(tree, 'right')``
  (``--binarize_true right``), predictions not binarized, then ``rst_parseval_compact_report`` four
  times, as showdown calls it (RST and, with ``--simple_rsttree``, ``SimpleRSTTree.from_rst_tree`` on both
  sides; micro and, with ``--per_doc``, macro), with ``gold`` among the parsers as showdown requires
  (so each report also scores the gold against itself). Less than showdown does: only the metric types S,
  N, R, F (showdown also asks for S+H ... F+H), the trees are read once for the four reports, and no
  dependency trees or reports are made. The report prints F1 with ``digits`` decimals;
  25 decimals (every F1 here is over 1e-5) read back as floats give educe's values exactly. Output:
  the 16 F1 values in percent, ``{"rst-parseval": {"micro": {"S": ..}, "macro": ..}, "parseval": ..}``
  like benchmarks/reference_baseline.py.
* ``dependency --rst-eval DIR --educe DIR GOLD PRED``: pipeline A of dependency-evaluation.md (D2),
  ``eval_disdep.py``'s procedure. ``dis2disdep.py`` cannot run with either educe copy (its section D6.9),
  so what it does for gold is done here for both sides with educe's own code (the ``--educe`` checkout,
  irit-melodi/educe 3c1e298; rst-eval's copy has no ``.dis_dep`` writer):
  ``RstDepTree.from_rst_tree(tree, nary_enc='chain')`` and ``dump_disdep_files`` into
  ``TMP_disdep/chain/{gold,ours}/test`` of a temporary folder; then rst-eval's ``evals/eval_disdep.py ours``
  runs unmodified there (``runpy``, as ``__main__``). It prints fractions with 4 decimals; the counts it
  divides are read exactly by giving its module a ``float`` that records its argument (each call is
  ``float(cnt_x) / cnt_tot``); the printed table comes back too. Output:
  ``{"support": N, "counts": {"a": .., "l": .., ..., "alnr": ..}, "printed": TABLE}``.

Reading, for both: educe's ``Reader(DIR).files()`` finds the files and each is read as
``Reader.slurp`` reads it (``parse_rst_dt_tree``, then ``set_origin`` with the file's key), except that
no text file is read: synthetic corpora have no ``.out`` text, which educe uses only for character
offsets (evaluation.md section 2.2), so the reference does slightly less work here than on RST-DT.

Run: ``python benchmarks/reference_educe.py constituency|dependency --rst-eval DIR [--educe DIR] GOLD PRED``.
"""
from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import json
import os
import runpy
import sys
import tempfile
from pathlib import Path

#: eval_disdep.py's counters, in the order it prints them
DISDEP = ["a", "l", "n", "r", "al", "an", "ar", "aln", "alr", "alnr"]


def read(folder: Path) -> dict:
    """{document name: educe RSTTree} for the ``.dis`` files of ``folder``, as ``Reader.slurp`` reads them
    (no text file)."""
    from educe.rst_dt import parse
    from educe.rst_dt.corpus import Reader
    trees = {}
    for key, (dis, _text) in Reader(str(folder)).files().items():
        with codecs.open(dis, "r", "utf-8") as stream:
            tree = parse.parse_rst_dt_tree(stream.read())
        tree.set_origin(key)
        trees[key.doc] = tree
    return trees


def constituency(rst_eval: Path, gold_dir: Path, pred_dir: Path) -> dict:
    sys.path.insert(0, str(rst_eval / "evals"))  # showdown.py runs from evals/: its educe is evals/educe
    from educe.rst_dt.annotation import SimpleRSTTree, _binarize
    from educe.rst_dt.corpus import RELMAP_112_18_FILE, RstRelationConverter
    from educe.rst_dt.metrics.rst_parseval import rst_parseval_compact_report
    rel_conv = RstRelationConverter(RELMAP_112_18_FILE).convert_tree  # showdown's REL_CONV
    gold, pred = read(gold_dir), read(pred_dir)
    names = sorted(gold)
    true = [_binarize(rel_conv(gold[name]), branching="right") for name in names]
    predicted = [rel_conv(pred[name]) for name in names]
    result: dict = {}
    for metric, simple in (("rst-parseval", False), ("parseval", True)):
        sides = [[SimpleRSTTree.from_rst_tree(t) for t in trees] for trees in (true, predicted)] if simple \
            else [true, predicted]
        parsers = [("gold", sides[0]), ("pred", sides[1])]
        result[metric] = {}
        for average, per_doc in (("micro", False), ("macro", True)):
            report = rst_parseval_compact_report("gold", parsers, ctree_type="SimpleRST" if simple else "RST",
                                                 metric_types=["S", "N", "R", "F"], digits=25, percent=False,
                                                 print_support=False, per_doc=per_doc,
                                                 add_trivial_spans=False, stringent=False)
            row = next(line.split() for line in report.splitlines() if line.split()[:1] == ["pred"])
            result[metric][average] = {key: 100 * float(value) for key, value in zip("SNRF", row[1:])}
    return result


def dependency(rst_eval: Path, educe: Path, gold_dir: Path, pred_dir: Path) -> dict:
    sys.path.insert(0, str(educe))
    from educe.rst_dt.deptree import RstDepTree
    from educe.rst_dt.disdep_format import dump_disdep_files
    seen: list[int] = []

    def recording_float(value: int) -> float:
        seen.append(value)
        return float(value)

    printed = io.StringIO()
    with tempfile.TemporaryDirectory() as work:
        for author, folder in (("gold", gold_dir), ("ours", pred_dir)):
            dtrees = {name: RstDepTree.from_rst_tree(tree, nary_enc="chain") for name, tree in read(folder).items()}
            dump_disdep_files(list(dtrees.values()), os.path.join(work, "TMP_disdep", "chain", author, "test"))
        here, argv = os.getcwd(), sys.argv
        os.chdir(work)  # eval_disdep.py reads TMP_disdep/ under the current folder
        sys.argv = ["eval_disdep.py", "ours"]
        try:
            with contextlib.redirect_stdout(printed):
                runpy.run_path(str(rst_eval / "evals" / "eval_disdep.py"), init_globals={"float": recording_float},
                               run_name="__main__")
        finally:
            os.chdir(here)
            sys.argv = argv
    table = printed.getvalue()
    row = table.splitlines()[-1].split()
    if len(seen) != len(DISDEP) or row[0] != "ours":
        raise SystemExit(f"eval_disdep.py's output is not as expected: {table!r} (counts seen: {seen})")
    support = int(row[-1])
    for value, shown in zip(seen, row[1:-1]):  # the recorded counts are the ones it printed
        if f"{value / support:.4f}" != shown:
            raise SystemExit(f"recorded count {value} / {support} is not the printed {shown}")
    return {"support": support, "counts": dict(zip(DISDEP, seen)), "printed": table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=["constituency", "dependency"])
    parser.add_argument("gold", type=Path)
    parser.add_argument("pred", type=Path)
    parser.add_argument("--rst-eval", type=Path, required=True, help="a checkout of moreymat/rst-eval")
    parser.add_argument("--educe", type=Path, help="a checkout of irit-melodi/educe (dependency)")
    args = parser.parse_args()
    if args.family == "constituency":
        result = constituency(args.rst_eval, args.gold, args.pred)
    elif args.educe is None:
        parser.error("dependency needs --educe (the .dis_dep writer is only in educe itself)")
    else:
        result = dependency(args.rst_eval, args.educe, args.gold, args.pred)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    sys.setrecursionlimit(100_000)  # the reading recurses per tree level; set only when run, not on import
    main()
