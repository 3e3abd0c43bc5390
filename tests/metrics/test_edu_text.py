"""Gold and prediction must be over the same EDU texts (where both sides carry text)."""
from __future__ import annotations

import pytest

from rstkit.cli import main
from rstkit.corpus import read_tree
from rstkit.errors import EDUMismatchError
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.edus import normalise_edu_text
from rstkit.tree import EDU


def three(texts: list[str], doc_id: str = "d") -> str:
    a, b, c = texts
    return f"""( Root (span 1 3)
  ( Nucleus (span 1 2) (rel2par span)
    ( Nucleus (leaf 1) (rel2par span) (text _!{a}_!) )
    ( Satellite (leaf 2) (rel2par elaboration) (text _!{b}_!) ) )
  ( Satellite (leaf 3) (rel2par attribution) (text _!{c}_!) ) )"""


GOLD_TEXTS = ["But it didn't fall (sharply),", 'as "analysts" {and} [traders] feared,', "the report said."]


@pytest.fixture()
def files(tmp_path):
    def write(name: str, texts: list[str]):
        path = tmp_path / name / "d.dis"
        path.parent.mkdir(exist_ok=True)
        path.write_text(three(texts), encoding="utf-8")
        return read_tree(path), path
    return write


@pytest.mark.parametrize("gold, pred", [
    ("didn't fall (sharply),", "did n't fall -LRB- sharply -RRB- ,"),  # PTB tokens and bracket escapes
    ("(sharply)", "-LB- sharply -RB-"),  # DPLP's escapes
    ('"analysts" {and} [traders]', "`` analysts '' -LCB- and -RCB- -LSB- traders -RSB-"),
    ("the report said.", "the  report\tsaid\u00a0.\n"),  # collapsed, tab, no-break space, newline
])
def test_tokenisation_differences_are_not_differences(gold, pred):
    assert normalise_edu_text(gold) == normalise_edu_text(pred)


@pytest.mark.parametrize("gold, pred", [("The report", "the report"), ("fell", "fall"), ("(a)", "[a]"),
                                        ("a-LRB-", "a[")])
def test_real_differences_remain(gold, pred):
    assert normalise_edu_text(gold) != normalise_edu_text(pred)


def test_same_count_different_text_is_an_error(files):
    gold, gold_path = files("gold", GOLD_TEXTS)
    pred, pred_path = files("pred", [GOLD_TEXTS[0], "as analysts had feared,", "the report said ."])
    with pytest.raises(EDUMismatchError) as info:
        score_documents({"d": gold}, {"d": pred}, EvalConfig())
    message = str(info.value)
    # EDU 1 is equal; EDU 2 differs (quotes and brackets dropped, "had" added); EDU 3 equal up to spacing
    assert "document 'd'" in message and "1 of 3 EDUs differ" in message and "the first is EDU 2" in message
    assert str(gold_path) in message and str(pred_path) in message
    assert "'as \"analysts\" {and} [traders] feared,'" in message and "'as analysts had feared,'" in message
    assert info.value.fixes == ("lenient",)


def test_case_counts(files):
    gold, _ = files("gold", GOLD_TEXTS)
    pred, _ = files("pred", [GOLD_TEXTS[0], GOLD_TEXTS[1], "The report said."])
    with pytest.raises(EDUMismatchError, match="the first is EDU 3"):
        score_documents({"d": gold}, {"d": pred}, EvalConfig(metric="rst-parseval"))


def test_retokenised_prediction_scores_normally(files):
    gold, _ = files("gold", GOLD_TEXTS)
    pred, _ = files("pred", ["But it did n't fall -LRB- sharply -RRB- ,",
                             "as `` analysts '' -LCB- and -RCB- -LSB- traders -RSB- feared ,", "the report said ."])
    result = score_documents({"d": gold}, {"d": pred}, EvalConfig())
    assert result.scores == {k: 100.0 for k in "SNRF"}
    assert not any("EDU text" in w for w in result.warnings)


def test_lenient_warns_and_scores(files):
    gold, _ = files("gold", GOLD_TEXTS)
    pred, _ = files("pred", ["Something else entirely", "as analysts had feared,", "the report said."])
    with pytest.warns(Warning, match="EDU text mismatch for document 'd': 2 of 3 EDUs differ, the first is EDU 1"):
        result = score_documents({"d": gold}, {"d": pred}, EvalConfig(lenient=True))
    assert result.scores == {k: 100.0 for k in "SNRF"}  # same tree over the same EDU numbers
    assert "lenient=yes" in result.signature


def test_a_side_without_text_is_not_compared():
    gold = loads_dis(three(GOLD_TEXTS), doc_id="d")
    no_text = type(gold)(gold.root, tuple(EDU(e.index) for e in gold.edus), "d")
    partly = type(gold)(gold.root, (EDU(1, "x"), EDU(2, ""), EDU(3, "   ")), "d")
    assert score_documents({"d": gold}, {"d": no_text}, EvalConfig()).scores["F"] == 100.0
    assert score_documents({"d": no_text}, {"d": gold}, EvalConfig()).scores["F"] == 100.0
    with pytest.raises(EDUMismatchError, match="1 of 3 EDUs differ, the first is EDU 1"):  # only EDU 1 compared
        score_documents({"d": gold}, {"d": partly}, EvalConfig())


def test_long_and_unprintable_texts_are_shortened_and_escaped():
    long_text = "word " * 40
    gold = loads_dis(three([long_text, "b", "c"]), doc_id="d")
    pred = type(gold)(gold.root, (EDU(1, "x\x00y"), *gold.edus[1:]), "d")
    with pytest.raises(EDUMismatchError) as info:
        score_documents({"d": gold}, {"d": pred}, EvalConfig())
    assert "'x\\x00y'" in str(info.value) and "word word" in str(info.value)
    assert long_text not in str(info.value)


def test_cli_names_the_flag(tmp_path, capsys):
    for side, texts in (("gold", GOLD_TEXTS), ("pred", ["a", "b", "c"])):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.dis").write_text(three(texts), encoding="utf-8")
    code = main(["eval", str(tmp_path / "gold"), str(tmp_path / "pred")])
    err = capsys.readouterr().err
    assert code == 2
    assert "EDU text mismatch for document 'd'" in err and "--lenient" in err
    assert main(["eval", str(tmp_path / "gold"), str(tmp_path / "pred"), "--lenient"]) == 0
