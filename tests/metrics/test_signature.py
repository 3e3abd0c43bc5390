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
from rstkit.settings import AVERAGES, COMPAT_MODES, EDU_MODES, EVAL_BINARIZATIONS, MISSING_POLICIES, PRESETS

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
    assert parse_signature(EvalConfig(compat="rst-eval", metric="parseval").signature(3))["bin.att"] == "right_mixed"
    assert "bin.att" not in parse_signature(EvalConfig(compat="rst-eval", metric="rst-parseval").signature(3))
    assert not {"ci", "boot", "trials", "seed"} & set(plain)


@pytest.mark.parametrize("text, message", [
    ("metric=parseval", "not an rstkit signature"),
    (EvalConfig().signature(2).replace("|lenient=no", "|lenient=no|colour=blue"), "unknown key"),
    (EvalConfig().signature(2).replace("|avg=micro", ""), "lacks avg="),
    (EvalConfig().signature(2) + "|docs=3", "docs twice"),
    (EvalConfig().signature(2).replace("|bin=right|", "|bin=rst-eval|"), "inconsistent: bin=rst-eval"),
    (EvalConfig().signature(2).replace("tuples=attachments+root-leaves", "tuples=nodes-root+leaves"),
     "inconsistent: tuples"),
    (EvalConfig(compat="rst-eval").signature(2).replace("|bin.att=right_mixed", ""), "inconsistent: bin.att"),
    (EvalConfig().signature(2).replace("lenient=no", "lenient=maybe"), "lenient must be yes or no"),
    (EvalConfig().signature(2).replace("docs=2", "docs=two"), "item docs=two is not an integer"),
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


# -- signatures no run could print; every run's signature reads back ------------------------------------
NTT = EvalConfig.preset("ntt").signature(3)


@pytest.mark.parametrize("text, named", [
    (NTT.replace("docs=3", "docs=-5"), "item docs=-5 is not a number of documents"),
    (NTT.replace("docs=3", "docs=abc"), "item docs=abc is not an integer"),
    (NTT.replace("docs=3", "docs=1.5"), "item docs=1.5 is not an integer"),
    (NTT.replace("|nary=first-three", ""), "item preset=ntt: preset 'ntt' fixes"),  # ntt's binarization left out
    (NTT.replace("preset=ntt", "preset=dmrst"), "item preset=dmrst: preset 'dmrst' fixes"),  # dmrst: nn=right
    (EvalConfig.preset("rst-eval").signature(3).replace("compat=rst-eval", "compat=none").replace(
        "bin=rst-eval", "bin=right"), "item preset=rst-eval"),
    (EvalConfig.preset("isanlp", edus="aligned").signature(3).replace("|fixer=isanlp-gum", ""),
     "item preset=isanlp"),
    (NTT.replace("|lenient=no", "|lenient=no|colour=red"), "unknown key(s) colour"),
    (NTT.replace("|docs=3", "|docs=3|docs=3"), "gives docs twice"),
    (NTT.replace("|avg=micro", "|avg=micro|avg=macro"), "gives avg twice"),
    (NTT.replace("|lenient=no", "|lenient=no|boot=-4|seed=1"), "item boot=-4: n_bootstrap must be"),
    (NTT.replace("|lenient=no", "|lenient=no|ci=0.9|boot=10|seed=x"), "item seed=x is not an integer"),
    (NTT.replace("|lenient=no", "|lenient=no|ci=nan|boot=10|seed=1"), "item ci=nan: confidence must be"),
    (NTT.replace("avg=micro", "avg=median"), "item avg=median: average must be one of"),
    (EvalConfig(metric="dependency").signature(2).replace("dep=chain", "dep=star"), "item dep=star"),
    (EvalConfig(edus="aligned").signature(2).replace("edus=aligned", "edus=gold|span=first-edu-end"),
     "item span=first-edu-end"),
])
def test_signatures_no_run_could_print_are_refused_naming_the_item(text, named):
    with pytest.raises(RSTKitError) as caught:
        EvalConfig.from_signature(text)
    assert named in str(caught.value)


@pytest.mark.parametrize("value", [5, None, b"rstkit:metric=parseval", ["rstkit:metric=parseval"]])
def test_a_signature_is_a_string(value):
    with pytest.raises(RSTKitError, match=f"a signature is a string .*not {type(value).__name__}"):
        EvalConfig.from_signature(value)


def test_a_preset_config_keeps_what_defines_the_preset():
    """The preset's compatibility mode and quirks are what make it the peer's procedure: an override that
    changes them, or a configuration named after the preset without them, is refused."""
    with pytest.raises(RSTKitError, match="preset 'ntt' fixes .*nary_children='first-three'"):
        EvalConfig.preset("ntt", nary_children="all")
    with pytest.raises(RSTKitError, match="preset 'rst-eval' fixes compat='rst-eval'"):
        EvalConfig(preset_name="rst-eval")
    assert EvalConfig.preset("dmrst", labels="rstdt18", average="macro").labels == "rstdt18"  # choices stay free


@st.composite
def eval_command_lines(draw) -> list[str]:
    """``rstkit eval`` arguments a user may type: any preset, metric, average and the other settings,
    each option drawn where it applies (an option that changes nothing is an error, tested elsewhere)."""
    metric = draw(st.sampled_from([None, "parseval", "rst-parseval", "dependency", "segmentation", "all",
                                   "parseval,dependency"]))
    argv = ["eval", "G", *(["P"] * draw(st.integers(1, 3)))]
    options = {
        "--metric": metric, "--average": draw(st.sampled_from([None, "micro", "macro", "dplp", "all"])),
        "--preset": draw(st.sampled_from([None, *PRESETS])),
        "--labels": draw(st.sampled_from([None, *label_map_names()])),
        "--binarize": draw(st.sampled_from([None, *EVAL_BINARIZATIONS, "rst-eval"])),
        "--compat": draw(st.sampled_from([None, *COMPAT_MODES])),
        "--missing": draw(st.sampled_from([None, *MISSING_POLICIES])),
        "--edus": draw(st.sampled_from([None, *EDU_MODES])),
        "--ci": draw(st.sampled_from([None, "0.9", "0.95", "0.5"])),
        "--n-bootstrap": draw(st.sampled_from([None, "1", "250"])),
        "--n-trials": draw(st.sampled_from([None, "7"])) if len(argv) > 3 else None,
        "--seed": draw(st.sampled_from([None, "0", "4294967295"])),
    }
    if options["--edus"] == "aligned":
        options["--span-key"] = draw(st.sampled_from([None, "chars", "first-edu-end"]))
    if metric and "dependency" in metric or metric == "all":
        options["--dep-encoding"] = draw(st.sampled_from([None, "chain", "tree", "tree,chain"]))
    for value in options.values():
        assert value is None or isinstance(value, str)
    argv += [part for option, value in options.items() if value is not None for part in (option, value)]
    flags = ["--lenient", "--exclude-single-edu", "--keep-unknown-labels"]
    if metric == "segmentation":
        flags.append("--no-sentence-initial")
    return argv + [flag for flag in flags if draw(st.booleans())]


@settings(max_examples=400, deadline=None)
@given(argv=eval_command_lines(), n_documents=st.integers(0, 10**6))
def test_every_configuration_a_run_makes_reads_back_from_its_signature(argv, n_documents):
    from rstkit.cli import build_parser
    from rstkit.cli.eval import eval_configs

    try:
        configs = eval_configs(build_parser(argv).parse_args(argv))
    except RSTKitError:  # options that do not go together: no run, no signature
        return
    for config in configs:
        text = config.signature(n_documents)
        assert EvalConfig.from_signature(text) == pinned(config), text
