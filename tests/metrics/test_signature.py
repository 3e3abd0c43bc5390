"""The signature pins every setting that changes a printed number, and reads back into an EvalConfig."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.cli import main
from rstkit.corpus import read_documents
from rstkit.errors import RSTKitError, RSTKitWarning
from rstkit.labels import label_map_names
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.config import Statistics, parse_signature
from rstkit.metrics.registry import METRICS
from rstkit.settings import AVERAGES, COMPAT_MODES, EDU_MODES, EVAL_BINARIZATIONS, MISSING_POLICIES

SAMPLE = "corpora/sample"


@st.composite
def statistics(draw) -> Statistics:
    confidence = draw(st.none() | st.floats(min_value=0.0, max_value=1.0, exclude_min=True, exclude_max=True))
    n_bootstrap = draw(st.integers(1, 10**6)) if confidence is not None else draw(st.none() | st.integers(1, 10**6))
    n_trials = draw(st.none() | st.integers(1, 10**7))
    needs_seed = n_bootstrap is not None or n_trials is not None
    seed = draw(st.integers(0, 2**63)) if needs_seed else draw(st.none() | st.integers(0, 2**63))
    return Statistics(confidence, n_bootstrap, n_trials, seed)


configs = st.builds(
    EvalConfig, metric=st.sampled_from(METRICS), average=st.sampled_from(AVERAGES),
    labels=st.sampled_from(label_map_names()), unknown_labels=st.sampled_from(["error", "keep"]),
    binarize=st.sampled_from(EVAL_BINARIZATIONS), compat=st.sampled_from([None, *COMPAT_MODES]),
    missing=st.sampled_from(MISSING_POLICIES), edus=st.sampled_from(EDU_MODES), lenient=st.booleans(),
    exclude_single_edu=st.booleans(), statistics=statistics())


def pinned(config: EvalConfig) -> EvalConfig:
    """What a signature can pin: with the identity label map, unknown_labels changes nothing and
    reads back as the constructors' default."""
    if config.labels == "raw":
        return config.replace(unknown_labels="keep" if config.compat else "error")
    return config


@settings(max_examples=500, deadline=None)
@given(config=configs, n_documents=st.integers(0, 10**6))
def test_signature_round_trip(config, n_documents):
    text = config.signature(n_documents)
    back = EvalConfig.from_signature(text)
    assert back == pinned(config)
    assert back.signature(n_documents) == text
    assert parse_signature(text)["docs"] == str(n_documents)


def test_every_combination_gives_its_own_signature():
    """Settings that change a score never share a signature (raw's unknown_labels aside)."""
    seen = {}
    for metric in METRICS:
        for average in AVERAGES:
            for binarize in EVAL_BINARIZATIONS:
                for compat in (None, "rst-eval"):
                    for labels in ("raw", "rstdt18"):
                        for unknown in ("error", "keep"):
                            config = pinned(EvalConfig(metric=metric, average=average, binarize=binarize,
                                                       compat=compat, labels=labels, unknown_labels=unknown))
                            seen.setdefault(config.signature(1), set()).add(config)
    assert all(len(group) == 1 for group in seen.values())
    assert len(seen) == len(METRICS) * 3 * 3 * 2 * 3


def test_only_what_can_differ_is_printed():
    """One binarization for gold and predictions (they always agree); the attachment
    re-binarization only where it applies (original Parseval under rst-eval compatibility)."""
    plain = parse_signature(EvalConfig().signature(3))
    assert plain["bin"] == "right" and "bin.gold" not in plain and "bin.pred" not in plain and "bin.att" not in plain
    assert parse_signature(EvalConfig.rst_eval(metric="parseval").signature(3))["bin.att"] == "right_mixed"
    assert "bin.att" not in parse_signature(EvalConfig.rst_eval(metric="rst-parseval").signature(3))
    assert not {"ci", "boot", "trials", "seed"} & set(plain)


@pytest.mark.parametrize("text, message", [
    ("metric=parseval", "not an rstkit signature"),
    (EvalConfig().signature(2).replace("|lenient=no", "|lenient=no|colour=blue"), "unknown key"),
    (EvalConfig().signature(2).replace("|avg=micro", ""), "lacks avg="),
    (EvalConfig().signature(2) + "|docs=3", "docs twice"),
    (EvalConfig().signature(2).replace("|bin=right|", "|bin=rst-eval|"), "inconsistent: bin=rst-eval"),
    (EvalConfig().signature(2).replace("tuples=attachments+root-leaves", "tuples=nodes-root+leaves"),
     "inconsistent: tuples"),
    (EvalConfig.rst_eval().signature(2).replace("|bin.att=right_mixed", ""), "inconsistent: bin.att"),
    (EvalConfig().signature(2).replace("lenient=no", "lenient=maybe"), "lenient must be yes or no"),
    (EvalConfig().signature(2).replace("docs=2", "docs=two"), "malformed number"),
    (EvalConfig().signature(2).replace("|lenient=no", "|lenient=no|boot=100"), "resampling needs a seed"),
    (EvalConfig().signature(2).replace("|lenient=no", "|lenient=no|ci=1.5|boot=100|seed=1"), "confidence"),
    (EvalConfig().signature(2).replace("avg=micro", "avg=median"), "average must be one of"),
    (EvalConfig().signature(2).replace("|avg=micro", "|avgmicro"), "not key=value"),
    (EvalConfig().signature(2).replace("edus=gold", "edus=silver"), "edus must be one of gold, aligned"),
])
def test_bad_signatures_are_clear_errors(text, message):
    with pytest.raises(RSTKitError, match=message):
        EvalConfig.from_signature(text)


def test_edus_is_pinned_and_older_signatures_read_as_gold():
    """edus=aligned changes the numbers, so it is printed; a signature from before the setting (no
    ``edus``) was necessarily made over gold EDUs."""
    aligned = EvalConfig(edus="aligned")
    assert parse_signature(aligned.signature(3))["edus"] == "aligned"
    assert EvalConfig.from_signature(aligned.signature(3)) == aligned
    older = EvalConfig(metric="rst-parseval").signature(3).replace("|edus=gold", "")
    assert "edus" not in parse_signature(older)
    assert EvalConfig.from_signature(older) == EvalConfig(metric="rst-parseval")


def test_version_is_not_a_setting():
    text = EvalConfig(metric="rst-parseval").signature(5).replace("version=0.1.0", "version=9.9")
    assert EvalConfig.from_signature(text) == EvalConfig(metric="rst-parseval")


@pytest.mark.parametrize("kwargs, message", [
    ({"confidence": 0.0, "n_bootstrap": 10, "seed": 1}, "confidence"),
    ({"confidence": 0.9, "seed": 1}, "needs a number of resamples"),
    ({"n_bootstrap": 0, "seed": 1}, "n_bootstrap must be an integer >= 1"),
    ({"n_trials": 2.5, "seed": 1}, "n_trials must be an integer"),
    ({"n_trials": 10, "seed": -1}, "seed must be an integer >= 0"),
    ({"n_trials": 10}, "needs a seed"),
])
def test_statistics_are_checked(kwargs, message):
    with pytest.raises(RSTKitError, match=message):
        Statistics(**kwargs)


def test_unknown_setting_in_with_is_a_clear_error():
    with pytest.raises(RSTKitError, match="unknown setting"):
        EvalConfig().replace(averaging="micro")


# -- the CLI puts its statistics into the signature, and the signature reproduces the numbers --------
def test_cli_signature_pins_the_statistics_and_reproduces_the_numbers(capsys):
    gold, pred = f"{SAMPLE}/gold", f"{SAMPLE}/pred"
    code = main(["eval", gold, pred, pred, "--names", "a,b", "--ci", "0.9", "--n-bootstrap", "200",
                 "--n-trials", "300", "--seed", "7", "--format", "json"])
    assert code == 0
    a, b = json.loads(capsys.readouterr().out)  # one object per system, one signature for both
    assert a["signature"] == b["signature"]
    signature = a["signature"]
    assert "|ci=0.9|boot=200|trials=300|seed=7|docs=4|" in signature
    config = EvalConfig.from_signature(signature)
    assert config.statistics == Statistics(0.9, 200, 300, 7)
    with pytest.warns(RSTKitWarning, match=r"1 one-EDU document\(s\) scored with 0 tuples .*: sample_note"):
        again = score_documents(read_documents(gold), [read_documents(pred), read_documents(pred)], config)
    assert again.scores == a["scores"]
    assert {k: list(v) for k, v in again.bootstrap(system=1).items()} == b["ci"]
    paired = again.paired_tests(1, 0)
    assert paired["bootstrap"] == b["paired_tests"]["bootstrap"]
    assert paired["randomization"] == b["paired_tests"]["randomization"]


def test_cli_without_statistics_prints_none(capsys):
    assert main(["eval", f"{SAMPLE}/gold", f"{SAMPLE}/pred", "--format", "json"]) == 0
    signature = json.loads(capsys.readouterr().out)["signature"]
    assert not {"ci", "boot", "trials", "seed"} & set(parse_signature(signature))
    assert EvalConfig.from_signature(signature) == EvalConfig()


def test_cli_ci_alone_has_no_trials(capsys):
    assert main(["eval", f"{SAMPLE}/gold", f"{SAMPLE}/pred", "--ci", "0.95", "--format", "json"]) == 0
    items = parse_signature(json.loads(capsys.readouterr().out)["signature"])
    assert (items["ci"], items["boot"], items["seed"]) == ("0.95", "1000", "12345") and "trials" not in items
