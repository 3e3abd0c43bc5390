"""Every option given to ``rstkit eval`` reaches the run or is an error naming it: with every ``--preset``
(an option the preset does not set is applied, one it sets replaces the preset's, one that cannot go
with the preset's settings is an error naming both), and without (an option that changes nothing in
the run, such as ``--dep-encoding`` without the dependency metric, is an error naming it and why).

The options come from the parser itself: an option added to ``rstkit eval`` without an entry in
:data:`SCORING` or :data:`RUN_OPTIONS` below fails ``test_every_eval_option_is_classified``.
Expected scores are counted by hand (tests/formats/test_disrpt.py's files; the arithmetic is in the
comments).
"""
from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from rstkit.cli import build_parser, main, sub_parser
from rstkit.cli.eval import eval_configs
from rstkit.errors import RSTKitError
from rstkit.metrics import EvalConfig
from rstkit.settings import PRESETS
from tests.formats.test_disrpt import GOLD_CONLLU, PRED_CONLLU

Check = Callable[[EvalConfig], bool]

#: each option that gives a scoring setting: the arguments that give it (with the options it needs to
#: change anything) and what every configuration must then show
SCORING: dict[str, tuple[list[str], Check]] = {
    "--metric": (["--metric", "dependency"], lambda c: c.metric == "dependency"),
    "--average": (["--average", "macro"], lambda c: c.average == "macro"),
    "--no-sentence-initial": (["--metric", "segmentation", "--no-sentence-initial"],
                              lambda c: c.settings.sentence_initial == "dropped"),
    "--labels": (["--labels", "rstdt18"], lambda c: c.labels == "rstdt18"),
    "--keep-unknown-labels": (["--labels", "rstdt18", "--keep-unknown-labels"],
                              lambda c: c.unknown_labels == "keep"),
    "--binarize": (["--binarize", "right_mixed"], lambda c: c.binarize == "right_mixed"),
    "--dep-encoding": (["--metric", "dependency", "--dep-encoding", "tree"],
                       lambda c: c.settings.dep_encoding == "tree"),
    "--compat": (["--compat", "rst-eval"], lambda c: c.compat == "rst-eval"),
    "--missing": (["--missing", "zero"], lambda c: c.missing == "zero"),
    "--lenient": (["--lenient"], lambda c: c.lenient),
    "--edus": (["--edus", "aligned"], lambda c: c.edus == "aligned"),
    "--span-key": (["--edus", "aligned", "--span-key", "chars"], lambda c: c.span_key == "chars"),
    "--exclude-single-edu": (["--exclude-single-edu"], lambda c: c.exclude_single_edu),
    "--ci": (["--ci", "0.9"], lambda c: c.statistics.confidence == 0.9),
    "--n-bootstrap": (["--ci", "0.9", "--n-bootstrap", "77"], lambda c: c.statistics.n_bootstrap == 77),
    "--n-trials": (["--n-trials", "33"], lambda c: c.statistics.n_trials == 33),
    "--seed": (["--ci", "0.9", "--seed", "5"], lambda c: c.statistics.seed == 5),
}
#: options that choose how the files are read or the result printed, no scoring setting: the
#: configurations are those of the run without them
RUN_OPTIONS: dict[str, list[str]] = {
    "--preset": [], "--from": ["--from", "dis"], "--gold-format": ["--gold-format", "dis"],
    "--pred-format": ["--pred-format", "dis"], "--doc-map": ["--doc-map", "map.tsv"],
    "--encoding": ["--encoding", "utf-8"], "--names": ["--names", "a,b"], "--skip-errors": ["--skip-errors"],
    "--per-relation": ["--per-relation"], "--format": ["--format", "json"], "--output": ["-o", "out.txt"],
    "--jobs": ["--jobs", "2"], "--digits": ["--digits", "3"], "--split": ["--split", "test"],
    "--quiet": ["-q"], "--verbose": ["-v"], "--help": [],
}


def _parse(argv: list[str], preds: tuple[str, ...] = ("P", "P2")) -> argparse.Namespace:
    """``rstkit eval`` parsed, by default with two PREDs (the paired tests' options apply)."""
    argv = ["eval", "G", *preds, *argv]
    return build_parser(argv).parse_args(argv)


def _eval_options() -> list[str]:
    parser = sub_parser(build_parser(["eval"]), "eval")
    assert parser is not None
    return sorted({max(a.option_strings, key=len) for a in parser._actions if a.option_strings})


def test_every_eval_option_is_classified():
    assert set(_eval_options()) == set(SCORING) | set(RUN_OPTIONS)


def _outcome(argv: list[str], preds: tuple[str, ...] = ("P", "P2")) -> list[EvalConfig] | str:
    """The configurations of ``argv``, or the message of the error it is."""
    try:
        return eval_configs(_parse(argv, preds))
    except RSTKitError as exc:
        return str(exc)


@pytest.mark.parametrize("preset", [None, *PRESETS])
@pytest.mark.parametrize("option", sorted(SCORING))
def test_an_option_given_reaches_the_run_or_is_an_error_naming_it(preset, option):
    argv, check = SCORING[option]
    with_preset = [*argv, *(["--preset", preset] if preset else [])]
    outcome = _outcome(with_preset)
    if isinstance(outcome, str):  # a conflict with the preset names both (an option of argv, as typed)
        typed = [" ".join(argv[i:i + 2]) if i + 1 < len(argv) and not argv[i + 1].startswith("--") else argv[i]
                 for i in range(len(argv)) if argv[i].startswith("--")]
        assert preset is not None and f"--preset {preset} and " in outcome, outcome
        assert any(option in outcome for option in typed), outcome
        return
    assert outcome and all(check(config) for config in outcome), (with_preset, outcome)
    assert all(config.preset_name == preset for config in outcome)


@pytest.mark.parametrize("preset", [None, *PRESETS])
@pytest.mark.parametrize("option", sorted(RUN_OPTIONS))
def test_run_options_change_no_setting(preset, option):
    with_preset = ["--preset", preset] if preset else []
    assert _outcome([*RUN_OPTIONS[option], *with_preset]) == _outcome(with_preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_preset_alone_is_its_settings(preset):
    """No option's default replaces a preset's setting: only an option given does."""
    assert _outcome(["--preset", preset], preds=("P",)) == [EvalConfig.preset(preset)]


@pytest.mark.parametrize("argv, named", [
    (["--preset", "ntt", "--binarize", "rst-eval"], "--preset ntt and --binarize rst-eval do not go together"),
    (["--preset", "dmrst", "--compat", "rst-eval"], "--preset dmrst and --compat rst-eval do not go together"),
    (["--preset", "ntt", "--binarize", "right_mixed"], "--preset ntt and --binarize right_mixed do not go together"),
    (["--preset", "isanlp", "--metric", "parseval,dependency"],
     "--preset isanlp and --metric dependency do not go together"),
    (["--preset", "crossgenre", "--metric", "segmentation"],
     "--preset crossgenre and --metric segmentation do not go together"),
])
def test_conflicts_name_the_preset_and_the_option_as_typed(argv, named):
    assert named in _outcome(argv)


@pytest.mark.parametrize("argv, named", [
    (["--no-sentence-initial"], "--no-sentence-initial applies to --metric segmentation only"),
    (["--preset", "neuralrst", "--no-sentence-initial"], "--no-sentence-initial applies to --metric segmentation"),
    (["--dep-encoding", "chain"], "--dep-encoding applies to --metric dependency only"),
    (["--metric", "parseval", "--dep-encoding", "tree,chain"], "--dep-encoding applies to --metric dependency"),
    (["--span-key", "first-edu-end"], "--span-key first-edu-end needs --edus aligned"),
    (["--preset", "dmrst", "--span-key", "chars"], "--span-key chars needs --edus aligned"),
    (["--format", "json", "--digits", "3"], "--digits rounds the scores of --format text"),
    (["--format", "csv", "--digits", "0"], "--format csv prints them unrounded"),
    (["--metric", "segmentation", "--binarize", "right"], "--binarize does not apply to --metric segmentation"),
    (["--metric", "segmentation", "--binarize", "rst-eval"], "--binarize does not apply to --metric segmentation"),
    (["--metric", "segmentation", "--labels", "gum"], "--labels does not apply to --metric segmentation"),
    (["--metric", "segmentation", "--compat", "rst-eval"], "--compat does not apply to --metric segmentation"),
    (["--metric", "segmentation", "--labels", "rstdt18", "--keep-unknown-labels"], "--labels does not apply"),
])
def test_an_option_that_changes_nothing_is_an_error(argv, named):
    assert named in _outcome(argv)


@pytest.mark.parametrize("argv, named", [
    (["--seed", "3"], "--seed seeds the resampling of --ci intervals and of the paired tests"),
    (["--n-bootstrap", "10"], "--n-bootstrap sets the resamples of --ci intervals"),
    (["--n-trials", "10"], "--n-trials sets the trials of the paired tests, which need several PREDs"),
    (["--ci", "0.9", "--n-trials", "10"], "--n-trials sets the trials of the paired tests"),
])
def test_resampling_options_need_resampling(argv, named):
    with pytest.raises(RSTKitError, match=named):
        eval_configs(_parse(argv, preds=("P",)))  # one PRED: no paired tests


def _scores(capsys, argv: list[str]) -> dict:
    capsys.readouterr()
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_preset_keeps_no_sentence_initial(tmp_path: Path, capsys):
    """The issue's case: ``--metric segmentation --no-sentence-initial --preset neuralrst`` scored with the
    sentence-initial boundaries counted."""
    gold, pred = tmp_path / "g.conllu", tmp_path / "p.conllu"
    gold.write_text(GOLD_CONLLU, encoding="utf-8")
    pred.write_text(PRED_CONLLU, encoding="utf-8")
    out = _scores(capsys, ["eval", str(gold), str(pred), "--metric", "segmentation", "--no-sentence-initial",
                           "--preset", "neuralrst"])
    # sentence-initial tokens The, But, Yes are no boundary: gold did ran sure = 3, pred cat ran sure = 3,
    # matched ran sure = 2 -> F1 2*2/(3+3) = 2/3 (counted, it would be 8/11: test_disrpt's hand count)
    assert out["counts"] == {"tokens": 11, "gold": 3, "pred": 3, "matched": 2}
    assert out["scores"]["F1"] == pytest.approx(200 / 3)
    assert "sentinit=dropped" in out["signature"] and "preset=neuralrst" in out["signature"]


def test_given_options_reach_a_preset_run(capsys):
    sample = Path(__file__).resolve().parents[2] / "corpora" / "sample"
    out = _scores(capsys, ["eval", str(sample / "gold"), str(sample / "pred"), str(sample / "pred"),
                           "--preset", "rstfinder", "--exclude-single-edu", "--missing", "zero",
                           "--n-trials", "20", "--n-bootstrap", "30", "--seed", "4", "--ci", "0.8", "-q"])
    signature = out[0]["signature"]
    for item in ("1edu=excluded", "missing=zero", "ci=0.8", "boot=30", "trials=20", "seed=4", "preset=rstfinder"):
        assert f"|{item}|" in signature, signature


def test_doc_map_with_disrpt_predictions(tmp_path: Path, capsys):
    """DISRPT files name their documents (``# newdoc id``): a --doc-map, even one that does not exist, was
    accepted and ignored."""
    gold, pred = tmp_path / "g.conllu", tmp_path / "p.conllu"
    gold.write_text(GOLD_CONLLU, encoding="utf-8")
    pred.write_text(PRED_CONLLU, encoding="utf-8")
    assert main(["eval", str(gold), str(pred), "--metric", "segmentation", "--doc-map", str(tmp_path / "x.tsv")]) == 2
    assert "--doc-map names the documents of tree files; DISRPT files name theirs" in capsys.readouterr().err
