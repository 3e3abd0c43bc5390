"""Peers' quirks (rstkit.metrics.quirks) on tiny trees, and the presets (rstkit.metrics.presets).

Every expected tuple and score is derived by hand in the comments, from the peers' procedures as
docs/presets.md states them: isanlp_rst's relation fixer tables (universal_parser/data_manager.py),
a multinuclear node's relation from its right child, NTT's binarization (src/data/tree.py:
n-ary nodes whose children's labels all agree right-heavy, others ((c1 c2) c3), later children dropped).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.cli import main
from rstkit.corpus import read_documents
from rstkit.errors import RSTKitError, RSTKitWarning
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.presets import PRESET_SETTINGS, preset_settings
from rstkit.metrics.quirks import quirk_rows
from rstkit.settings import EDU_MODES, PRESETS
from tests.support.cli_run import run_main
from tests.support.strategies import rst_trees

SAMPLE = Path(__file__).resolve().parents[2] / "corpora" / "sample"


def leaf(i: int, nuc: str, rel: str) -> str:
    return f"( {nuc} (leaf {i}) (rel2par {rel}) (text _!edu {i}_!) )"


def root(n: int, *kids: str) -> str:
    return f"( Root (span 1 {n})\n" + "\n".join(kids) + " )"


def tree(text: str, doc: str = "d"):
    return loads_dis(text, doc_id=doc)


def scores(gold: str, pred: str, **settings) -> dict[str, float]:
    return score_documents({"d": tree(gold)}, {"d": tree(pred)}, EvalConfig(**settings)).scores


# -- isanlp's relation fixer (GUM table: topic_ns -> contingency_ns, restatement_sn -> restatement_ns) ---------
TOPIC_NS = root(2, leaf(1, "Nucleus", "span"), leaf(2, "Satellite", "topic-question"))
CONTINGENCY_NS = root(2, leaf(1, "Nucleus", "span"), leaf(2, "Satellite", "contingency-condition"))
RESTATEMENT_SN = root(2, leaf(1, "Satellite", "restatement-repetition"), leaf(2, "Nucleus", "span"))
RESTATEMENT_NS = root(2, leaf(1, "Nucleus", "span"), leaf(2, "Satellite", "restatement-repetition"))


def test_fixer_rewrites_gum_topic_ns_and_restatement_sn():
    fixed = EvalConfig(labels="gum", relation_fixer="isanlp-gum")
    # one decision (1,2): topic NS -> contingency NS; restatement SN -> restatement NS
    assert quirk_rows(tree(TOPIC_NS), fixed, marcu=False) == [(1, 2, "NS", "contingency")]
    assert quirk_rows(tree(RESTATEMENT_SN), fixed, marcu=False) == [(1, 2, "NS", "restatement")]
    # Marcu's tuples follow: the nucleus span, the satellite the relation
    assert sorted(quirk_rows(tree(RESTATEMENT_SN), fixed.replace(metric="rst-parseval"), marcu=True)) == [
        (1, 1, "N", "span"), (2, 2, "S", "restatement")]
    # a node the table does not name is left as it is
    assert quirk_rows(tree(CONTINGENCY_NS), fixed, marcu=False) == [(1, 2, "NS", "contingency")]


def test_fixer_changes_the_scores_it_should():
    # gold topic NS vs predicted contingency NS: one decision, span and nuclearity agree; relation only
    # with the fixer (gold becomes contingency): R 0 -> 100
    with pytest.warns(RSTKitWarning, match="do not meet: 0 of 1"):  # topic against contingency, one decision
        assert scores(TOPIC_NS, CONTINGENCY_NS, labels="gum") == {"S": 100.0, "N": 100.0, "R": 0.0, "F": 0.0}
    assert scores(TOPIC_NS, CONTINGENCY_NS, labels="gum", relation_fixer="isanlp-gum") == {
        "S": 100.0, "N": 100.0, "R": 100.0, "F": 100.0}
    # gold restatement SN vs predicted restatement NS: nuclearity differs (N 0, F 0) until the fixer
    assert scores(RESTATEMENT_SN, RESTATEMENT_NS, labels="gum") == {"S": 100.0, "N": 0.0, "R": 100.0, "F": 0.0}
    assert scores(RESTATEMENT_SN, RESTATEMENT_NS, labels="gum", relation_fixer="isanlp-gum")["F"] == 100.0


def test_rurstb_fixer_table():
    # RuRSTB: elaboration_sn -> preparation_sn (relation only), background_ns -> elaboration_ns
    sn = root(2, leaf(1, "Satellite", "elaboration"), leaf(2, "Nucleus", "span"))
    config = EvalConfig(relation_fixer="isanlp-rurstb")
    assert quirk_rows(tree(sn), config, marcu=False) == [(1, 2, "SN", "preparation")]


# -- NN relation from the right child --------------------------------------------------------------------------
MIXED_NN = root(2, leaf(1, "Nucleus", "Joint"), leaf(2, "Nucleus", "Sequence"))
SEQUENCE_NN = root(2, leaf(1, "Nucleus", "Sequence"), leaf(2, "Nucleus", "Sequence"))


def test_nn_relation_from_the_right_child():
    left, right = EvalConfig(metric="parseval"), EvalConfig(metric="parseval", nn_relation="right")
    # rstkit's rule (educe's): an NN decision takes the left child's relation; the right rule its right child's
    assert quirk_rows(tree(MIXED_NN), right, marcu=False) == [(1, 2, "NN", "Sequence")]
    assert quirk_rows(tree(MIXED_NN), left.replace(relation_fixer="isanlp-gum"), marcu=False) == [
        (1, 2, "NN", "Joint")]
    # under RST-Parseval both children carry the right child's relation
    assert sorted(quirk_rows(tree(MIXED_NN), right.replace(metric="rst-parseval"), marcu=True)) == [
        (1, 1, "N", "Sequence"), (2, 2, "N", "Sequence")]
    # against a Sequence/Sequence prediction: original Parseval R 0 (Joint) vs 100 (Sequence);
    # RST-Parseval R 1/2 = 50 (EDU 1 Joint vs Sequence, EDU 2 matches) vs 100
    with pytest.warns(RSTKitWarning, match="do not meet: 0 of 1"):  # Joint against Sequence, one decision
        assert scores(MIXED_NN, SEQUENCE_NN, metric="parseval")["R"] == 0.0
    assert scores(MIXED_NN, SEQUENCE_NN, metric="parseval", nn_relation="right")["R"] == 100.0
    assert scores(MIXED_NN, SEQUENCE_NN, metric="rst-parseval")["R"] == 50.0
    assert scores(MIXED_NN, SEQUENCE_NN, metric="rst-parseval", nn_relation="right")["R"] == 100.0


# -- NTT's binarization: three children kept where labels differ ---------------------------------------------
FIVE = root(5, leaf(1, "Satellite", "preparation"), leaf(2, "Nucleus", "span"), leaf(3, "Satellite", "elaboration"),
            leaf(4, "Satellite", "elaboration"), leaf(5, "Satellite", "background"))
LIST4 = root(4, *(leaf(i, "Nucleus", "List") for i in range(1, 5)))


def test_ntt_binarization_keeps_three_children_where_labels_differ():
    config = EvalConfig(nary_children="first-three")
    # S1 N2 S3 S4 S5, labels differ: ((S1 N2) S3), the new node (1-2) a nucleus "span"; EDUs 4 and 5 dropped,
    # so the root spans 1-3. Decisions (pre-order): (1,3) N+S -> NS elaboration, (1,2) S+N -> SN preparation
    assert quirk_rows(tree(FIVE), config, marcu=False) == [(1, 3, "NS", "elaboration"), (1, 2, "SN", "preparation")]
    # Marcu's tuples: every node but the root, leaves included
    assert sorted(quirk_rows(tree(FIVE), config.replace(metric="rst-parseval"), marcu=True)) == [
        (1, 1, "S", "preparation"), (1, 2, "N", "span"), (2, 2, "N", "span"), (3, 3, "S", "elaboration")]
    # children with one label (N:List x 4): right-heavy (1 (2 (3 4))), the new nodes N:List
    assert quirk_rows(tree(LIST4), config, marcu=False) == [
        (1, 4, "NN", "List"), (2, 4, "NN", "List"), (3, 4, "NN", "List")]


def test_ntt_binarization_scores_the_dropped_edus_as_absent():
    # gold FIVE under NTT: 2 decisions (above); the same tree as prediction, binarized the same way: 100
    assert scores(FIVE, FIVE, nary_children="first-three") == {"S": 100.0, "N": 100.0, "R": 100.0, "F": 100.0}
    # binary prediction ((1 2) (3 (4 5))): decisions (1,5) (1,2) (3,5) (4,5); gold (1,3) (1,2):
    # (1,2) SN preparation matches: P 1/4, R 1/2: F1 = 2*1/(2+4) = 33.333
    pred = ("( Root (span 1 5)\n( Nucleus (span 1 2) (rel2par span)\n" + leaf(1, "Satellite", "preparation")
            + leaf(2, "Nucleus", "span") + ")\n( Satellite (span 3 5) (rel2par elaboration)\n"
            + leaf(3, "Nucleus", "span") + "( Satellite (span 4 5) (rel2par elaboration)\n"
            + leaf(4, "Nucleus", "Joint") + leaf(5, "Nucleus", "Joint") + ") ) )")
    assert scores(FIVE, pred, nary_children="first-three") == pytest.approx(
        {"S": 100 / 3, "N": 100 / 3, "R": 100 / 3, "F": 100 / 3})


def test_quirks_off_give_rstkit_rows(gum_nary):
    """On GUM trees the quirk path with nn_relation=right gives the walk's decisions (rstkit's own
    rows) but for the relation of NN decisions: same spans, same pairs, same number."""
    config = EvalConfig(metric="parseval", labels="gum")
    quirky = config.replace(nn_relation="right")
    for doc, gold in list(gum_nary.items())[:20]:
        walked = config.family.rows(gold, config, gold=False)[0]
        rows = quirk_rows(gold, quirky, marcu=False)
        differ = [(a, b) for a, b in zip(walked, rows) if a != b]
        assert all(a[:3] == b[:3] and a[2] == "NN" for a, b in differ), doc  # only NN relations may differ
        assert len(walked) == len(rows)


def test_quirks_refuse_what_they_do_not_define():
    with pytest.raises(RSTKitError, match="nn_relation is a setting of rst-parseval, parseval, not of dependency"):
        EvalConfig(metric="dependency", nn_relation="right")
    with pytest.raises(RSTKitError, match="compat"):
        EvalConfig(compat="rst-eval", nary_children="first-three")


# -- presets ----------------------------------------------------------------------------------------------
@given(name=st.sampled_from(PRESETS), edus=st.sampled_from(EDU_MODES),
       average=st.sampled_from(["micro", "macro", "dplp", None]))
def test_presets_expand_deterministically_and_round_trip(name, edus, average):
    overrides = {"edus": edus, **({"average": average} if average else {})}
    config = EvalConfig.preset(name, **overrides)
    assert config == EvalConfig.preset(name, **overrides)
    assert config.preset_name == name
    signature = config.signature(7)
    assert f"|preset={name}|" in signature
    assert EvalConfig.from_signature(signature) == config
    for key, value in PRESET_SETTINGS[name].items():  # every setting expanded, overrides aside
        if key not in overrides and not (key == "span_key" and edus != "aligned"):
            assert config.all_settings()[key] == value


def test_preset_values_from_the_peers():
    assert preset_settings("dmrst", edus="aligned")["span_key"] == "first-edu-end"
    assert "span_key" not in preset_settings("dmrst")  # gold EDUs: the keyings agree, the setting is left out
    isanlp = EvalConfig.preset("isanlp", edus="aligned")
    assert (isanlp.metric, isanlp.labels, isanlp.settings.relation_fixer, isanlp.span_key) == (
        "parseval", "gum", "isanlp-gum", "first-edu-end")
    assert EvalConfig.preset("ntt").settings.nary_children == "first-three"
    assert EvalConfig.preset("crossgenre").average == "dplp"
    assert EvalConfig.preset("rstfinder").binarize == "none"
    with pytest.raises(RSTKitError, match="unknown preset"):
        EvalConfig.preset("nope")


@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")  # sample_note has one EDU
def test_rst_eval_preset_gives_the_numbers_of_compat_rst_eval():
    gold, pred = read_documents(SAMPLE / "gold"), read_documents(SAMPLE / "pred")
    for metric in ("rst-parseval", "parseval"):
        for average in ("micro", "macro", "dplp"):
            a = score_documents(gold, pred, EvalConfig.preset("rst-eval", metric=metric, average=average))
            b = score_documents(gold, pred, EvalConfig(compat="rst-eval", metric=metric, average=average))
            assert a.scores == b.scores and a.precision == b.precision and a.recall == b.recall
            assert a.signature == b.signature.replace("|docs=", "|preset=rst-eval|docs=")


@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")
def test_cli_preset(capsys):
    gold, pred = str(SAMPLE / "gold"), str(SAMPLE / "pred")
    assert main(["eval", gold, pred, "--preset", "dmrst", "--edus", "aligned", "--metric", "parseval"]) == 0
    out = capsys.readouterr().out
    assert "metric=parseval" in out and "span=first-edu-end" in out and "nn=right" in out and "preset=dmrst" in out
    status, err = run_main(["eval", gold, pred, "--preset", "ntt", "--compat", "rst-eval"], capsys)
    assert status != 0 and "--preset ntt and --compat rst-eval" in err


@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")
def test_cli_options_replace_the_presets(capsys):
    gold, pred = str(SAMPLE / "gold"), str(SAMPLE / "pred")
    assert main(["eval", gold, pred, "--preset", "crossgenre", "--labels", "raw", "--average", "micro"]) == 0
    out = capsys.readouterr().out
    assert "|avg=micro|" in out and "|labels=raw|" in out and "|nn=right|" in out and "preset=crossgenre" in out
    status, err = run_main(["audit", gold, pred, "--published", "S=50", "--span-key", "first-edu-end"], capsys)
    assert status != 0 and "--span-key needs --edus aligned" in err


@settings(max_examples=150, deadline=None)
@given(tree=rst_trees(min_edus=2, max_edus=14, max_arity=5, patterns="reference"),
       metric=st.sampled_from(["rst-parseval", "parseval"]))
def test_quirks_that_do_not_apply_leave_rstkit_rows(tree, metric):
    """On trees whose multinuclear children share their label (this strategy's), the right child's relation
    is the left one's, so ``nn_relation=right`` gives rstkit's own rows; and where no n-ary node has
    children of differing labels (no S N S), NTT's binarization is rstkit's right-heavy one."""
    config = EvalConfig(metric=metric)
    own = sorted(config.family.rows(tree, config, gold=False)[0])
    assert sorted(quirk_rows(tree, config.replace(nn_relation="right"), marcu=metric == "rst-parseval")) == own
    mixed = any(n.arity > 2 and len({(c.nuclearity, c.relation) for c in n.children}) > 1 for n in tree.nodes())
    if not mixed:
        ntt = config.replace(nary_children="first-three")
        assert sorted(quirk_rows(tree, ntt, marcu=metric == "rst-parseval")) == own
