"""The scorer against worked examples kept in the repository (tests/data/worked): rstkit's own small
trees, every expected number derived by hand in tests/data/worked/README.md (not produced by rstkit).
Nothing here needs ../shared."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import rstkit
from rstkit.dependency import dependency_records
from rstkit.errors import RSTKitWarning
from rstkit.metrics import EvalConfig
from tests.support.worked import CONSTITUENCY_AVERAGES

WORKED = Path(__file__).parents[1] / "data" / "worked"


def scores(folder: str, config: EvalConfig, **options):
    """The first system's precision, recall and F1 of ``config`` on a worked folder."""
    result = rstkit.evaluate(WORKED / folder / "gold", WORKED / folder / "pred", config, **options)
    return result.systems[0].scores


def f1(folder: str, **settings) -> dict[str, float]:
    return dict(scores(folder, EvalConfig(**settings)).f1)



@pytest.mark.parametrize("binarize, metric, average", list(CONSTITUENCY_AVERAGES))
def test_constituency_families_on_two_documents(binarize, metric, average):
    expected = dict(zip("SNRF", (100 * v for v in CONSTITUENCY_AVERAGES[binarize, metric, average])))
    assert f1("constituency", metric=metric, average=average, binarize=binarize) == pytest.approx(expected)


@pytest.mark.parametrize("metric", ["rst-parseval", "parseval"])
def test_dplp_average_equals_macro_when_precision_equals_recall(metric):
    # every prediction is binary over the gold EDUs: P = R in each document (README, averages)
    expected = dict(zip("SNRF", (100 * v for v in CONSTITUENCY_AVERAGES["right", metric, "macro"])))
    assert f1("constituency", metric=metric, average="dplp") == pytest.approx(expected)


def test_one_document_by_hand():
    # README, w1_four: RST-Parseval 5/6, 4/6, 4/6, 4/6; Parseval 2/3, 2/3, 1/3, 1/3
    gold = rstkit.read_tree(WORKED / "constituency" / "gold" / "w1_four.dis")
    pred = rstkit.read_tree(WORKED / "constituency" / "pred" / "w1_four.dis")
    by_hand = {"rst-parseval": (5 / 6, 4 / 6, 4 / 6, 4 / 6), "parseval": (2 / 3, 2 / 3, 1 / 3, 1 / 3)}
    for metric, expected in by_hand.items():
        result = rstkit.metrics.score_documents({"w1": gold}, {"w1": pred}, EvalConfig(metric=metric))
        assert dict(result.scores) == pytest.approx(dict(zip("SNRF", (100 * v for v in expected))))


def test_b1_nested_node_under_compat():
    # README, nested/: 7 gold tuples all among the 8 predicted ones; Parseval re-binarizes: 100
    with pytest.warns(RSTKitWarning, match="bug B1 .* left 1 gold node"):
        rst = scores("nested", EvalConfig(compat="rst-eval", metric="rst-parseval"))
    for measure in "SNRF":
        assert rst.precision[measure] == pytest.approx(100 * 7 / 8)
        assert rst.recall[measure] == pytest.approx(100.0)
        assert rst.f1[measure] == pytest.approx(100 * 2 * (7 / 8) / (7 / 8 + 1))
    # Parseval's pass repairs the node: nothing left n-ary, no warning
    assert f1("nested", metric="parseval", compat="rst-eval", unknown_labels="keep") == pytest.approx(
        dict.fromkeys("SNRF", 100.0))
    for metric in ("rst-parseval", "parseval"):  # binarized recursively: the prediction is the gold
        assert f1("nested", metric=metric) == pytest.approx(dict.fromkeys("SNRF", 100.0))


@pytest.mark.parametrize("metric", ["rst-parseval", "parseval"])
def test_one_edu_document_counts_as_zero_in_macro(metric):
    # README, one_edu/: micro 100, macro (100 + 0) / 2, 100 once the one-EDU document is excluded
    with pytest.warns(RSTKitWarning, match="one-EDU"):
        assert f1("one_edu", metric=metric) == pytest.approx(dict.fromkeys("SNRF", 100.0))
    with pytest.warns(RSTKitWarning, match="one-EDU"):
        assert f1("one_edu", metric=metric, average="macro") == pytest.approx(dict.fromkeys("SNRF", 50.0))
    with pytest.warns(RSTKitWarning, match="excluded"):
        assert f1("one_edu", metric=metric, average="macro", exclude_single_edu=True) == pytest.approx(
            dict.fromkeys("SNRF", 100.0))


# README, dependency/: the records per EDU (head, label, nuclearity, rank)
RECORDS = {
    ("d1_list", "gold", "chain"): [(2, "background", "Satellite", 2), (0, "ROOT", "Nucleus", 1),
                                   (2, "Contrast", "Nucleus", 1), (3, "Contrast", "Nucleus", 1)],
    ("d1_list", "gold", "tree"): [(2, "background", "Satellite", 2), (0, "ROOT", "Nucleus", 1),
                                  (2, "Contrast", "Nucleus", 1), (2, "Contrast", "Nucleus", 1)],
    ("d1_list", "pred", "chain"): [(2, "background", "Satellite", 3), (0, "ROOT", "Nucleus", 1),
                                   (2, "Contrast", "Nucleus", 1), (2, "Contrast", "Nucleus", 2)],
    ("d2_flip", "gold", "chain"): [(0, "ROOT", "Nucleus", 1), (1, "elaboration", "Satellite", 1),
                                   (2, "attribution", "Satellite", 1)],
    ("d2_flip", "pred", "chain"): [(0, "ROOT", "Nucleus", 1), (3, "attribution", "Satellite", 1),
                                   (1, "elaboration", "Satellite", 1)],
}


@pytest.mark.parametrize("doc, side, encoding", list(RECORDS))
def test_dependency_records_by_hand(doc, side, encoding):
    records = dependency_records(rstkit.read_tree(WORKED / "dependency" / side / f"{doc}.dis"), encoding)
    assert list(zip(records.head, records.label, records.nuclearity, records.rank)) == RECORDS[doc, side, encoding]


# README, dependency totals over 7 EDUs
DEPENDENCY = {
    "chain": {"U": 4, "R": 4, "N": 4, "O": 3, "R+N": 4, "R+O": 3, "O+N": 3, "F": 3, "tag_R": 5, "tag_N": 7, "tag_O": 5},
    "tree": {"U": 5, "R": 5, "N": 5, "O": 3, "R+N": 5, "R+O": 3, "O+N": 3, "F": 3, "tag_R": 5, "tag_N": 7, "tag_O": 5},
}


@pytest.mark.parametrize("encoding", list(DEPENDENCY))
def test_dependency_measures_by_hand(encoding):
    expected = {measure: 100 * correct / 7 for measure, correct in DEPENDENCY[encoding].items()}
    assert f1("dependency", metric="dependency", dep_encoding=encoding) == pytest.approx(expected)


# README, dep_nested/: bug B1 in chain's right_mixed pass (records written out by hand there,
# and in docs/metrics/dependency.md)
NESTED_PRED = [(4, "background", "Satellite", 2), (1, "List", "Nucleus", 1), (2, "List", "Nucleus", 1),
               (0, "ROOT", "Nucleus", 1), (4, "elaboration", "Satellite", 1)]
NESTED_RECORDS = {
    ("gold", "chain", False): [(4, "background", "Satellite", 1), (1, "List", "Nucleus", 1),
                               (2, "List", "Nucleus", 1), (0, "ROOT", "Nucleus", 1),
                               (4, "elaboration", "Satellite", 2)],
    ("gold", "chain", True): [(4, "background", "Satellite", 1), (1, "List", "Nucleus", 1),
                              (1, "List", "Nucleus", 1), (0, "ROOT", "Nucleus", 1),
                              (4, "elaboration", "Satellite", 2)],
    ("gold", "tree", False): [(4, "background", "Satellite", 1), (1, "List", "Nucleus", 1),
                              (1, "List", "Nucleus", 1), (0, "ROOT", "Nucleus", 1),
                              (4, "elaboration", "Satellite", 1)],
    ("pred", "chain", False): NESTED_PRED,
    ("pred", "chain", True): NESTED_PRED,
    ("pred", "tree", False): NESTED_PRED,
}


@pytest.mark.parametrize("side, encoding, b1", list(NESTED_RECORDS))
def test_dependency_records_with_b1_by_hand(side, encoding, b1):
    tree = rstkit.read_tree(WORKED / "dep_nested" / side / "d3_nested.dis")
    records = dependency_records(tree, encoding, b1=b1)
    got = list(zip(records.head, records.label, records.nuclearity, records.rank))
    assert got == NESTED_RECORDS[side, encoding, b1]


# README, dep_nested/ scores over 5 EDUs: (U, O, F) correct; N, R and R+N equal U, O+N equals O
NESTED = {
    ("chain", None): (5, 3, 3),
    ("chain", "rst-eval"): (4, 2, 2),
    ("tree", None): (4, 3, 3),
}


@pytest.mark.parametrize("encoding, compat", list(NESTED))
def test_dependency_b1_scores_by_hand(encoding, compat):
    u, o, f = (100 * correct / 5 for correct in NESTED[encoding, compat])
    expected = {"U": u, "N": u, "R": u, "R+N": u, "O": o, "O+N": o, "F": f}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = f1("dep_nested", metric="dependency", dep_encoding=encoding, compat=compat)
    assert {m: got[m] for m in expected} == pytest.approx(expected)
    b1_warnings = [w for w in caught if "bug B1" in str(w.message)]
    assert len(b1_warnings) == (1 if compat else 0)
