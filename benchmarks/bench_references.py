"""rstkit against each reference's own code where a local copy is given, else against the pure-Python baselines.

One run times, side by side and alternating (rstkit, reference, rstkit, ...), each scorer family on a
corpus made here (never committed):

* **segmentation** (``rstkit eval GOLD.tok PRED.tok --metric segmentation``): 2 files of ``--tokens``
  tokens (default 2,000,000) in ``--docs`` documents (default 20), :mod:`make_disrpt`. The reference is
  the DISRPT shared task's own scorer when ``$RSTKIT_DISRPT_EVAL`` names a local copy of it
  (``utils/disrpt_eval_2024.py`` of disrpt/sharedtask2025, run as ``python FILE -g GOLD -p PRED -t S``;
  it needs scikit-learn), else benchmarks/disrpt_baseline.py (pure Python, NOT the official script).
* **constituency** (``--metric rst-parseval,parseval --average micro,macro --labels rstdt18 --compat
  rst-eval``, 16 numbers) on ``--rst-docs`` synthetic RST-DT-like documents (:mod:`make_corpus`,
  default 2,000). The reference is educe's own scoring, rst-eval's ``showdown.py`` path
  (benchmarks/reference_educe.py), when ``$RSTKIT_RST_EVAL`` names a local checkout of moreymat/rst-eval
  (478f36f; educe needs nltk and numpy), else benchmarks/reference_baseline.py (pure Python, NOT educe).
* **dependency** (``--metric dependency --compat rst-eval --labels rstdt18``: ``eval_disdep.py``'s
  procedure, pipeline A of dependency-evaluation.md) on the same corpus. The reference is that procedure
  run by educe's and rst-eval's own code (benchmarks/reference_educe.py: educe's ``from_rst_tree(chain)``
  and ``.dis_dep`` writer, then rst-eval's ``eval_disdep.py``) when ``$RSTKIT_RST_EVAL`` is set; it also
  needs ``$RSTKIT_EDUCE``, a checkout of irit-melodi/educe (3c1e298), since the writer is not in rst-eval.
  Otherwise benchmarks/dependency_baseline.py (pure Python, NOT the reference).

With ``$RSTKIT_RST_EVAL`` the RST corpus is made ``--educe-readable`` (folder ``rst-N-educe``: the same
trees, no ``]`` in EDU text, which educe cannot read). Each family's numbers must agree (the counts and
P/R/F1 of segmentation, the 16 F1 values of the constituency metrics, the 10 counts of eval_disdep.py as
rstkit's U, tag_R, tag_N, tag_O, R, N, O, R+N, R+O and F, to 1e-9), else the script fails. Printed per family: the
median wall and CPU seconds and peak RSS of each side, and reference / rstkit, the median of the paired
ratios.

Run: ``[RSTKIT_DISRPT_EVAL=/path/to/disrpt_eval_2024.py] [RSTKIT_RST_EVAL=/path/to/rst-eval
RSTKIT_EDUCE=/path/to/educe] python benchmarks/bench_references.py [--runs 3]
[--families segmentation,constituency,dependency] [--corpora DIR]``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the generators and the measuring wrapper beside this script
from eval_corpus import measure, rstkit_numbers  # noqa: E402
from make_corpus import make_corpus  # noqa: E402
from make_disrpt import make_disrpt  # noqa: E402

RSTKIT = [sys.executable, "-m", "rstkit", "eval"]


def segmentation(corpora: Path, args: argparse.Namespace) -> tuple[list[str], list[str], str, object]:
    """(rstkit's command, the reference's, what the reference is, a function checking both outputs)."""
    folder = corpora / f"disrpt-{args.docs}x{args.tokens}"
    gold, pred = folder / "gold.tok", folder / "pred.tok"
    if not pred.exists():
        make_disrpt(folder, docs=args.docs, tokens=args.tokens)
    official = os.environ.get("RSTKIT_DISRPT_EVAL")
    if official:
        reference = [sys.executable, official, "-g", str(gold), "-p", str(pred), "-t", "S"]
        what = f"the official scorer ({official})"
    else:
        reference = [sys.executable, str(HERE / "disrpt_baseline.py"), str(gold), str(pred)]
        what = "benchmarks/disrpt_baseline.py (pure Python, NOT the official scorer)"

    def check(ours: str, theirs: str) -> None:
        mine, other = json.loads(ours), json.loads(theirs)
        counts = mine["counts"]
        assert (counts["tokens"], counts["gold"], counts["pred"]) == (
            other["tok_count"], other["gold_count"], other["pred_count"]), (counts, other)
        for key, name in (("P", "precision"), ("R", "recall"), ("F1", "f_score")):
            assert abs(mine["scores"][key] - 100 * other[name]) < 1e-9, (key, mine["scores"], other)

    return [*RSTKIT, str(gold), str(pred), "--metric", "segmentation", "--format", "json"], reference, what, check


def rst_corpus(corpora: Path, args: argparse.Namespace) -> tuple[Path, Path]:
    """The RST-DT-like corpus (gold/, pred/) of the constituency and dependency families; one that educe
    can read when educe is the reference."""
    educe = bool(os.environ.get("RSTKIT_RST_EVAL"))
    folder = corpora / f"rst-{args.rst_docs}{'-educe' if educe else ''}"
    if not (folder / "pred").exists():
        make_corpus(folder, args.rst_docs, educe_readable=educe)
    return folder / "gold", folder / "pred"


def constituency(corpora: Path, args: argparse.Namespace) -> tuple[list[str], list[str], str, object]:
    gold, pred = rst_corpus(corpora, args)
    ours = [*RSTKIT, str(gold), str(pred), "--metric", "rst-parseval,parseval", "--average", "micro,macro",
            "--labels", "rstdt18", "--compat", "rst-eval", "--format", "json"]
    rst_eval = os.environ.get("RSTKIT_RST_EVAL")
    if rst_eval:
        reference = [sys.executable, str(HERE / "reference_educe.py"), "constituency", str(gold), str(pred),
                     "--rst-eval", rst_eval]
        what = f"educe's own scoring, showdown.py's path ({rst_eval})"
    else:
        reference = [sys.executable, str(HERE / "reference_baseline.py"), str(gold), str(pred)]
        what = "benchmarks/reference_baseline.py (pure Python, NOT educe)"

    def check(mine: str, theirs: str) -> None:
        data = json.loads(theirs)
        numbers = rstkit_numbers([mine])
        expected = {(metric, average, key): value for metric in ("rst-parseval", "parseval")
                    for average, scores in data[metric].items() for key, value in scores.items()}
        assert set(numbers) == set(expected), (sorted(numbers), sorted(expected))
        worst = max(abs(numbers[k] - expected[k]) for k in expected)
        assert worst < 1e-9, worst

    return ours, reference, what, check


#: eval_disdep.py's counts -> rstkit's dependency measures (dependency-evaluation.md D4; labels mapped)
DISDEP_MEASURES = {"a": "U", "l": "tag_R", "n": "tag_N", "r": "tag_O", "al": "R", "an": "N", "ar": "O",
                   "aln": "R+N", "alr": "R+O", "alnr": "F"}


def check_dependency(mine: str, theirs: str) -> None:
    """rstkit's dependency scores (percent) against the reference's counts: equal to 1e-9, same support."""
    ours, data = json.loads(mine), json.loads(theirs)
    support = data["support"]
    assert sum(doc["edus"] for doc in ours["documents"]) == support, support
    for count, name in DISDEP_MEASURES.items():
        expected = 100 * data["counts"][count] / support
        assert abs(ours["scores"][name] - expected) < 1e-9, (name, ours["scores"][name], expected)


def dependency(corpora: Path, args: argparse.Namespace) -> tuple[list[str], list[str], str, object]:
    gold, pred = rst_corpus(corpora, args)
    ours = [*RSTKIT, str(gold), str(pred), "--metric", "dependency", "--compat", "rst-eval", "--labels", "rstdt18",
            "--format", "json"]
    rst_eval = os.environ.get("RSTKIT_RST_EVAL")
    if rst_eval:
        educe = os.environ.get("RSTKIT_EDUCE")
        if not educe:
            raise SystemExit("bench_references.py: the dependency family's reference needs $RSTKIT_EDUCE too "
                             "(a checkout of irit-melodi/educe: rst-eval has no .dis_dep writer)")
        reference = [sys.executable, str(HERE / "reference_educe.py"), "dependency", str(gold), str(pred),
                     "--rst-eval", rst_eval, "--educe", educe]
        what = f"eval_disdep.py's procedure by educe's and rst-eval's own code ({educe}, {rst_eval})"
    else:
        reference = [sys.executable, str(HERE / "dependency_baseline.py"), str(gold), str(pred)]
        what = "benchmarks/dependency_baseline.py (pure Python, NOT educe or rst-eval)"
    return ours, reference, what, check_dependency


FAMILIES = {"segmentation": segmentation, "constituency": constituency, "dependency": dependency}


def bench(name: str, corpora: Path, args: argparse.Namespace) -> None:
    ours, reference, what, check = FAMILIES[name](corpora, args)
    rows: dict[str, list[tuple[float, float, float]]] = {"rstkit": [], "reference": []}
    for run in range(args.runs):
        mine = measure(ours)
        theirs = measure(reference)
        if run == 0:
            check(mine[3], theirs[3])  # type: ignore[operator]
        rows["rstkit"].append(mine[:3])
        rows["reference"].append(theirs[:3])
    print(f"\n{name}: reference = {what}; {args.runs} paired runs, medians")
    print(f"{'':10} {'wall s':>8} {'CPU s':>8} {'peak MiB':>9}")
    for side, measured in rows.items():
        wall, cpu, rss = (statistics.median(m[i] for m in measured) for i in range(3))
        print(f"{side:10} {wall:8.2f} {cpu:8.2f} {rss:9.0f}")
    for i, figure in ((0, "wall"), (1, "CPU")):
        ratios = [r[i] / m[i] for m, r in zip(rows["rstkit"], rows["reference"])]
        print(f"reference / rstkit, {figure}: {statistics.median(ratios):.2f}x "
              f"(paired, {min(ratios):.2f}-{max(ratios):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--corpora", type=Path, default=None, help="where corpora are made and kept "
                        "(default: a temporary folder)")
    parser.add_argument("--docs", type=int, default=20, help="DISRPT documents per file")
    parser.add_argument("--tokens", type=int, default=2_000_000, help="DISRPT tokens per file")
    parser.add_argument("--rst-docs", type=int, default=2000, help="RST-DT-like documents")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # modules run with their bytecode cached, as installed
    with tempfile.TemporaryDirectory() as temporary:
        corpora = args.corpora or Path(temporary)
        for name in args.families.split(","):
            bench(name, corpora, args)


if __name__ == "__main__":
    main()
