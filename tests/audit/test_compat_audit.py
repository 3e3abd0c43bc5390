"""``rstkit audit`` on gold with double-nested S N S nodes, and the checks on published numbers."""
from __future__ import annotations

import json
import math

import pytest

from rstkit.audit import (
    Paper,
    PaperRow,
    PaperTable,
    Published,
    Variant,
    audit_published,
    load_paper,
    parse_published,
)
from rstkit.cli import main
from rstkit.errors import RSTKitError
from rstkit.formats.dis import dumps_dis, loads_dis
from rstkit.transform import binarize
from tests.metrics.test_compat_nested import A_GOLD, B_GOLD, B_PRED, C_GOLD


@pytest.fixture(scope="module")
def nested_corpus():
    """Documents A, B, C of test_compat_nested; C's prediction is its right-heavy binarization with
    EDU 11 labelled elaboration-additional instead of elaboration-general-specific (one class under
    rst_112to18, two labels raw), so the raw label map is told apart from rstdt18."""
    gold = {d: loads_dis(text, doc_id=d) for d, text in (("A", A_GOLD), ("B", B_GOLD), ("C", C_GOLD))}
    relabelled = loads_dis(C_GOLD.replace("elaboration-general-specific", "elaboration-additional"), doc_id="C")
    pred = {"A": binarize(gold["A"], "right"), "B": loads_dis(B_PRED, doc_id="B"), "C": binarize(relabelled, "right")}
    return gold, pred


# Original Parseval, micro, raw labels, under --compat rst-eval (tuples derived in test_compat_nested):
# per document (matched S, N, R, F; gold; predicted):
#   A: 4, 2, 3, 2; 5; 6      B: 4, 1, 2, 1; 7; 8
#   C with the relabelled EDU 11: the 2-11 decision (NS) now has relation elaboration-additional
#     against the gold's elaboration-general-specific, so R loses 2-11 (4 of 5 left: 1-11, 2-4, 5-9,
#     6-8) and F keeps 1-11 only: 6, 2, 4, 1; 7; 10
# micro F1 = 2 * sum(matched) / (19 + 24): S 28/43, N 10/43, R 18/43, F 8/43
PUBLISHED = "S=65.12 N=23.26 R=41.86 F=18.60"
EXPECTED = {"S": 28 / 43, "N": 10 / 43, "R": 18 / 43, "F": 8 / 43}


def test_hand_computed_row_is_what_the_text_says():
    published = parse_published(PUBLISHED)
    for measure, value in EXPECTED.items():
        assert abs(100 * value - published.values[measure]) <= 0.005


def test_rst_eval_variant_is_the_unique_exact_match(nested_corpus):
    gold, pred = nested_corpus
    result = audit_published(gold, pred, parse_published(PUBLISHED), label_maps=("rstdt18",))
    target = Variant("parseval", "micro", "raw", "rst-eval")
    assert [m.scored.variant for m in result.exact] == [target]
    assert result.matches[0].scored.variant == target and result.matches[0].rank == 1
    assert result.matches[1].rank == 2
    assert result.matches[0].scored.scores == pytest.approx({k: 100 * v for k, v in EXPECTED.items()})
    assert not result.not_applicable  # the compat variants are computed, not dropped
    assert any("after educe's right_mixed pass" in w for w in result.warnings)


def test_cli_audit_ranks_the_rst_eval_variant_first(nested_corpus, tmp_path, capsys):
    gold, pred = nested_corpus
    for side, trees in (("gold", gold), ("pred", pred)):
        (tmp_path / side).mkdir()
        for doc_id, tree in trees.items():
            (tmp_path / side / f"{doc_id}.dis").write_text(dumps_dis(tree), encoding="utf-8")
    code = main(["audit", str(tmp_path / "gold"), str(tmp_path / "pred"), "--published", PUBLISHED,
                 "--format", "json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact_matches"] == ["parseval/micro/raw/rst-eval"]
    assert out["matches"][0]["variant"] == "parseval/micro/raw/rst-eval"
    assert out["not_applicable"] == []


# -- published numbers ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ("S=100.5", "S=100.5 is above 100"), ("N=-3.0", "N=-3.0 is negative"), ("F=-0.5 S=80", "is negative"),
    ("S=nan", "has no number"), ("S=inf", "has no number"), ("R/F=250", "above 100"),
])
def test_impossible_published_numbers_are_rejected(text, message):
    with pytest.raises(RSTKitError, match=message) as info:
        parse_published(text)
    assert "percentages" in str(info.value) or "has no number" in str(info.value)
    assert "--" not in str(info.value)  # a library message names no command-line flag


def test_bounds_are_inclusive():
    assert parse_published("S=0 N=100.0 F=+50").values == {"S": 0.0, "N": 100.0, "F": 50.0}


@pytest.mark.parametrize("values", [{"S": math.nan}, {"S": -1.0}, {"S": 101.0}, {"S": "85"}, {"S": True}])
def test_published_objects_are_checked_too(values):
    with pytest.raises(RSTKitError, match="published S="):
        Published(values, {"S": 0.05})
    with pytest.raises(RSTKitError, match="published S="):
        Published.from_values(values, 1)


def test_tolerances_are_checked():
    with pytest.raises(RSTKitError, match="tolerance"):
        Published({"S": 50.0}, {"S": 0.0})
    with pytest.raises(RSTKitError, match="rounding tolerance"):
        Published({"S": 50.0}, {})


def test_cli_rejects_impossible_published_numbers(nested_corpus, tmp_path, capsys):
    gold, _ = nested_corpus
    path = tmp_path / "A.dis"
    path.write_text(dumps_dis(gold["A"]), encoding="utf-8")
    code = main(["audit", str(path), str(path), "--published", "S=120.0"])
    assert code == 2
    assert "S=120.0 is above 100" in capsys.readouterr().err


# -- lookups in published tables ------------------------------------------------------------------
def test_unknown_table_or_row_is_a_clear_error():
    paper = load_paper("morey2017")
    with pytest.raises(RSTKitError, match="no Table 99"):
        paper.table(99)
    with pytest.raises(RSTKitError, match="no row for parser 'nosuch'"):
        paper.tables[0].row("nosuch")
    table = PaperTable(1, "t", ("S",), {}, (PaperRow("x", "X", "", {"S": 1.0}),), {})
    assert table.row("x").values == {"S": 1.0}
    assert isinstance(paper, Paper)
