"""Reports keep what was asked for (issue 32, items 14 and 17): ``--per-relation`` prints its table in
every ``--format``; ``--ci`` intervals and the paired tests' p-values are in the Markdown and LaTeX tables
as in the text table; a p-value under its test's resolution prints as ``< bound``, never ``0.0000``.

Expected values by hand:

* Per relation: the weather tree (tests/data/formats/weather.dis) against itself with the satellite's
  ``cause`` relabelled ``purpose``. RST-Parseval's R tuples are the non-root nodes with their relations:
  gold {1 textual-organization, 2-3 textual-organization, 2 cause, 3 span}, predicted the same with
  ``2 purpose``. Per label: textual-organization gold 2 pred 2 matched 2 (100/100/100); cause 1 0 0
  (P 0 by the zero-division rule, R 0, F1 0); span 1 1 1 (100); purpose 0 1 0 (0/0/0). Rows by gold
  count, then label: textual-organization, cause, span, purpose.
* p-values: 20 copies of one document, the baseline a prediction that differs from the gold on it, the
  other system the gold itself. Every bootstrap resample draws 20 copies of the same document, so its
  difference equals the observed one: no resample lies as far from it as the observed lies from 0, and
  the bootstrap p-value (share c/N, rstkit.metrics.significance) is 0. Approximate randomization swaps
  each document with probability 1/2; the difference is as large as the observed one only when all 20
  or none are swapped, probability 2 / 2**20, so with 1000 trials (expected hits 0.002) none does and
  p = (0 + 1)/(1000 + 1). Both are at their floor; the resolution 1/(N + 1) = 1/1001 rounded up to one
  significant digit is 0.001: both print ``< 0.001``. With 100000 resamples and trials, 1/100001 rounds
  up to 0.00001.
"""
from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from rstkit.cli import main
from rstkit.errors import RSTKitError
from rstkit.evaluation import evaluate
from rstkit.metrics import EvalConfig
from rstkit.metrics.significance import p_value_floor
from rstkit.report import FORMATS, Report, render

PROJECT = Path(__file__).resolve().parents[1].parent
SAMPLE = PROJECT / "corpora" / "sample"
WEATHER = PROJECT / "tests" / "data" / "formats" / "weather.dis"

#: (label, gold, pred, matched, P, R, F1) by hand (module docstring)
RELATIONS = [("textual-organization", 2, 2, 2, "100.00", "100.00", "100.00"),
             ("cause", 1, 0, 0, "0.00", "0.00", "0.00"),
             ("span", 1, 1, 1, "100.00", "100.00", "100.00"),
             ("purpose", 0, 1, 0, "0.00", "0.00", "0.00")]


def run(capsys, *argv: object) -> str:
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out


@pytest.fixture
def relabelled(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    shutil.copy(WEATHER, tmp_path / "gold" / "w.dis")
    (tmp_path / "pred" / "w.dis").write_text(WEATHER.read_text(encoding="utf-8").replace("rel2par cause",
                                                                                       "rel2par purpose"))
    return tmp_path / "gold", tmp_path / "pred"


# -- item 14: --per-relation in every format ------------------------------------------------------------
def test_per_relation_text(capsys, relabelled) -> None:
    out = run(capsys, "eval", *relabelled, "--metric", "rst-parseval", "--per-relation")
    rows = [line.split() for line in out.splitlines()]
    assert [row for row in rows if row and row[0] in {r[0] for r in RELATIONS}] == [
        [label, str(g), str(p), str(m), prec, rec, f1] for label, g, p, m, prec, rec, f1 in RELATIONS]


def test_per_relation_markdown(capsys, relabelled) -> None:
    out = run(capsys, "eval", *relabelled, "--metric", "rst-parseval", "--per-relation", "--format", "markdown")
    lines = out.splitlines()
    start = lines.index("| relation | gold | pred | match | P | R | F1 |")
    assert lines[start + 2:start + 6] == [f"| {label} | {g} | {p} | {m} | {prec} | {rec} | {f1} |"
                                          for label, g, p, m, prec, rec, f1 in RELATIONS]
    assert "Most confused (gold -> predicted, same span): cause -> purpose (1)" in lines
    assert lines[-1].startswith("`rstkit:metric=rst-parseval")  # the signature stays last


def test_per_relation_latex(capsys, relabelled) -> None:
    out = run(capsys, "eval", *relabelled, "--metric", "rst-parseval", "--per-relation", "--format", "latex")
    lines = out.splitlines()
    start = lines.index(r"Relation & Gold & Pred & Match & P & R & F1 \\")
    assert lines[start + 2:start + 6] == [f"{label} & {g} & {p} & {m} & {prec} & {rec} & {f1} \\\\"
                                          for label, g, p, m, prec, rec, f1 in RELATIONS]
    assert out.count(r"\begin{tabular}") == out.count(r"\end{tabular}") == 2


def test_per_relation_csv(capsys, relabelled) -> None:
    out = run(capsys, "eval", *relabelled, "--metric", "rst-parseval", "--per-relation", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    scores, relations = [r for r in rows if not r["relation"]], [r for r in rows if r["relation"]]
    assert [r["measure"] for r in scores] == ["S", "N", "R", "F"]
    assert [(r["relation"], int(r["gold"]), int(r["pred"]), int(r["matched"]), f"{float(r['precision']):.2f}",
             f"{float(r['recall']):.2f}", f"{float(r['f1']):.2f}") for r in relations] == RELATIONS
    assert {r["measure"] for r in relations} == {"R"} and {r["system"] for r in rows} == {"pred"}


def test_per_relation_json(capsys, relabelled) -> None:
    out = json.loads(run(capsys, "eval", *relabelled, "--metric", "rst-parseval", "--per-relation",
                         "--format", "json"))
    assert [(r["label"], r["gold"], r["pred"], r["matched"], f"{r['precision']:.2f}", f"{r['recall']:.2f}",
             f"{r['f1']:.2f}") for r in out["relations"]] == RELATIONS


def test_per_relation_with_several_metrics_in_each_format(capsys, relabelled) -> None:
    for fmt in ("text", "markdown", "latex", "csv"):
        out = run(capsys, "eval", *relabelled, "--metric", "rst-parseval,parseval", "--average", "micro,macro",
                  "--per-relation", "--format", fmt)
        assert "purpose" in out, fmt  # a label only the prediction has: only in the per-relation tables


def test_per_relation_of_a_metric_without_relations_is_an_error() -> None:
    results = evaluate(SAMPLE / "gold", SAMPLE / "pred", EvalConfig(metric="segmentation")).results
    for fmt in FORMATS:
        with pytest.raises(RSTKitError, match="no relations"):
            render(Report(list(results), per_relation=True), fmt)


# -- item 17: intervals and p-values in every format ----------------------------------------------------
@pytest.fixture
def separated(tmp_path: Path) -> tuple[Path, Path]:
    """20 copies of one document: gold, and a prediction that differs from it (module docstring)."""
    gold, pred = tmp_path / "gold", tmp_path / "pred"
    gold.mkdir()
    pred.mkdir()
    for i in range(20):
        shutil.copy(SAMPLE / "gold" / "sample_harbour.dis", gold / f"d{i}.dis")
        shutil.copy(SAMPLE / "pred" / "sample_harbour.dis", pred / f"d{i}.dis")
    return gold, pred


def test_the_floor_and_bound_by_hand() -> None:
    assert p_value_floor("bootstrap", 1000) == (0.0, 0.001)  # c/N: 0 at c = 0; 1/1001 rounded up
    assert p_value_floor("randomization", 1000) == (1 / 1001, 0.001)  # (c + 1)/(N + 1)
    assert p_value_floor("randomization", 10000)[1] == 0.0001  # 1/10001
    assert p_value_floor("bootstrap", 1500)[1] == 0.0007  # 1/1501 = 0.000666..., up to 0.0007
    assert p_value_floor("bootstrap", 1) == (0.0, 0.5)
    with pytest.raises(RSTKitError):
        p_value_floor("sign", 100)


PAIRED = ["--names", "base,other", "--metric", "rst-parseval", "--n-bootstrap", "1000", "--n-trials", "1000"]


def test_p_values_under_the_resolution_text(capsys, separated) -> None:
    gold, pred = separated
    out = run(capsys, "eval", gold, pred, gold, *PAIRED)
    for test in ("bootstrap", "randomization"):
        row = next(line for line in out.splitlines() if f"({test} p)" in line)
        assert row.split(f"({test} p)")[1].split() == ["<", "0.001"] * 4
    assert "0.0000" not in out


def test_p_values_under_the_resolution_markdown(capsys, separated) -> None:
    gold, pred = separated
    out = run(capsys, "eval", gold, pred, gold, *PAIRED, "--format", "markdown")
    assert "| other vs base (bootstrap p) | < 0.001 | < 0.001 | < 0.001 | < 0.001 |" in out.splitlines()
    assert "| other vs base (randomization p) | < 0.001 | < 0.001 | < 0.001 | < 0.001 |" in out.splitlines()


def test_p_values_under_the_resolution_latex(capsys, separated) -> None:
    gold, pred = separated
    out = run(capsys, "eval", gold, pred, gold, *PAIRED, "--format", "latex")
    assert r"other vs base (bootstrap $p$) & $<$ 0.001 & $<$ 0.001 & $<$ 0.001 & $<$ 0.001 \\" in out.splitlines()
    assert r"other vs base (randomization $p$) & $<$ 0.001 & $<$ 0.001 & $<$ 0.001 & $<$ 0.001 \\" in out


def test_p_values_under_the_resolution_csv(capsys, separated) -> None:
    gold, pred = separated
    rows = list(csv.DictReader(io.StringIO(run(capsys, "eval", gold, pred, gold, *PAIRED, "--format", "csv"))))
    assert [(r["p_bootstrap"], r["p_randomization"]) for r in rows if r["system"] == "other"] == [("< 0.001",) * 2] * 4
    assert {(r["p_bootstrap"], r["p_randomization"]) for r in rows if r["system"] == "base"} == {("", "")}


def test_p_values_under_the_resolution_json(capsys, separated) -> None:
    gold, pred = separated
    other = json.loads(run(capsys, "eval", gold, pred, gold, *PAIRED, "--format", "json"))[1]
    assert other["paired_tests"]["bootstrap"] == dict.fromkeys("SNRF", 0.0)  # the numbers stay
    assert other["paired_tests"]["randomization"] == dict.fromkeys("SNRF", 1 / 1001)
    assert other["paired_tests_resolution"] == {"bootstrap": {"trials": 1000, "floor": 0.0, "bound": 0.001},
                                                "randomization": {"trials": 1000, "floor": 1 / 1001, "bound": 0.001}}


def test_a_finer_resolution(capsys, separated) -> None:
    gold, pred = separated
    out = run(capsys, "eval", gold, pred, gold, "--names", "base,other", "--metric", "rst-parseval",
              "--n-bootstrap", "100000", "--n-trials", "100000")
    assert out.count("< 0.00001") == 8 and "0.0000 " not in out


def test_a_floor_equal_to_its_bound_is_not_called_less(capsys, separated) -> None:
    # approximate randomization with 999 trials: p at its floor is (0 + 1) / (999 + 1) = 0.001 exactly, so the
    # report may say p <= 0.001, never p < 0.001; the bootstrap's floor 0 stays under its bound 1/1000 -> "< 0.001"
    gold, pred = separated
    args = ["eval", gold, pred, gold, "--names", "base,other", "--metric", "rst-parseval",
            "--n-bootstrap", "999", "--n-trials", "999"]
    out = run(capsys, *args)
    randomization = next(line for line in out.splitlines() if "(randomization p)" in line)
    bootstrap = next(line for line in out.splitlines() if "(bootstrap p)" in line)
    assert randomization.count("<= 0.001") == 4 and bootstrap.count("< 0.001") == 4 and "<=" not in bootstrap
    latex = run(capsys, *args, "--format", "latex")
    assert "$\\le$ 0.001" in latex and "$<$ 0.001" in latex


def test_a_small_p_value_above_the_floor_shows_its_first_digit(separated) -> None:
    # p = 2/100000 from a bootstrap of 100000 resamples: above its floor 0, and 0.0000 with 4 decimals
    gold, pred = separated
    result = evaluate(gold, [pred, gold], EvalConfig(metric="rst-parseval"), names=["base", "other"])
    report = result.report()
    report.paired[(0, 1)] = {"bootstrap": dict.fromkeys("SNRF", 2e-05)}
    row = next(line for line in render(report).splitlines() if "(bootstrap p)" in line)
    assert row.split("(bootstrap p)")[1].split() == ["0.00002"] * 4


def test_intervals_in_markdown_and_latex_as_in_text(capsys) -> None:
    args = ["eval", SAMPLE / "gold", SAMPLE / "pred", "--metric", "rst-parseval", "--ci", "0.95"]
    text = run(capsys, *args)
    row = next(line for line in text.splitlines() if line.startswith("pred "))
    cells = [cell.strip() for cell in row[len("pred"):].split("]") if cell.strip()]
    cells = [cell + "]" for cell in cells]  # "90.62 [83.33, 100.00]" per measure, as the text table shows
    assert len(cells) == 4
    markdown = run(capsys, *args, "--format", "markdown")
    assert f"| pred | {' | '.join(cells)} |" in markdown.splitlines() and "95% bootstrap CI" in markdown
    latex = run(capsys, *args, "--format", "latex")
    assert f"pred & {' & '.join(cells)} \\\\" in latex.splitlines() and "95% bootstrap CI" in latex


def test_p_values_in_markdown_and_latex_as_in_text(capsys) -> None:
    args = ["eval", SAMPLE / "gold", SAMPLE / "pred", SAMPLE / "gold", "--names", "base,other",
            "--metric", "rst-parseval,parseval", "--n-bootstrap", "200", "--n-trials", "200"]
    text = run(capsys, *args)
    values = [line.split("(bootstrap p)")[1].split() for line in text.splitlines() if "(bootstrap p)" in line]
    assert len(values) == 2 and all(len(v) == 4 for v in values)  # one row per metric
    markdown = run(capsys, *args, "--format", "markdown")
    rows = [line for line in markdown.splitlines() if "(bootstrap p)" in line]
    assert [row.strip("| ").split(" | ")[3:] for row in rows] == values
    latex = run(capsys, *args, "--format", "latex")
    (row,) = [line for line in latex.splitlines() if "(bootstrap $p$)" in line]
    assert row.removesuffix(r" \\").split(" & ")[1:] == values[0] + values[1]
