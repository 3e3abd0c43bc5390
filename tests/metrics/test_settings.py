"""One concept, one constant: every choice is spelled in rstkit.settings and read from there by the
library and the command line; the one P/R/F division and its zero-division rule."""
from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import get_args

import numpy as np
import pytest

from rstkit import settings
from rstkit.audit import AUDIT_FORMATS, GOLD_BINARIZATIONS, variants
from rstkit.cli import build_parser
from rstkit.errors import RSTKitError
from rstkit.labels import RSTDT18_CANONICAL, RSTDT18_CLASSES, get_label_map, label_map_names
from rstkit.metrics import EvalConfig
from rstkit.metrics.average import aggregate, divide, percent
from rstkit.metrics.counts import Counts
from rstkit.metrics.registry import ALL_METRICS
from rstkit.metrics.relations import RelationReport
from rstkit.transform import binarize
from rstkit.tree import EDU, ROOT, RSTTree, leaf

PROJECT = Path(__file__).resolve().parents[1].parent

#: the constituency metrics, which the audit's variants cover by default
CONSTITUENCY = ("rst-parseval", "parseval")


def choices(command: str, option: str) -> tuple:
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    (action,) = [a for a in sub._actions if option in a.option_strings]
    return tuple(action.choices)


@pytest.mark.parametrize("literal, values", [
    (settings.Average, settings.AVERAGES),
    (settings.Binarization, settings.BINARIZATIONS), (settings.EvalBinarization, settings.EVAL_BINARIZATIONS),
    (settings.Compat, settings.COMPAT_MODES), (settings.Missing, settings.MISSING_POLICIES),
    (settings.UnknownLabels, settings.UNKNOWN_LABEL_POLICIES), (settings.EduMode, settings.EDU_MODES),
    (settings.Measure, settings.MEASURES), (settings.LabelMapName, settings.LABEL_MAPS),
    (settings.DependencyEncoding, settings.DEP_ENCODINGS)])
def test_each_tuple_is_its_literal_type(literal, values):
    assert get_args(literal) == values and len(set(values)) == len(values)


def test_the_choices_of_the_command_line_are_the_settings():
    assert choices("eval", "--metric") == (*ALL_METRICS, "all")
    assert choices("eval", "--average") == (*settings.AVERAGES, "all")
    assert choices("eval", "--binarize") == (*settings.EVAL_BINARIZATIONS, settings.RST_EVAL)  # rst-eval: --compat
    assert choices("eval", "--compat") == settings.COMPAT_MODES
    assert choices("eval", "--missing") == settings.MISSING_POLICIES
    assert choices("audit", "--missing") == settings.MISSING_POLICIES
    assert choices("audit", "--format") == AUDIT_FORMATS
    assert choices("convert", "--binarize") == settings.BINARIZATIONS
    assert set(choices("draw", "--binarize")) == set(settings.BINARIZATIONS)
    for command in ("eval", "convert", "draw"):
        assert tuple(choices(command, "--labels")) == tuple(sorted(settings.LABEL_MAPS))


#: the choices of the command line that are no setting of scoring or of a tree (settings.py's docstring
#: says where each lives), by (command, option)
NOT_SETTINGS = {("eval", "--metric"): "the metric families (metrics.registry)",
                **{(command, "--format"): "report formats" for command in ("eval", "stats", "discoeval", "audit")},
                **{(command, "--to"): "file formats" for command in ("convert", "parse", "segment")},
                ("draw", "--kind"): "drawings", ("train", "--schedule"): "training", ("audit", "--paper"): "papers",
                **{(command, "--engine"): "where the work runs (cli.engine)" for command in ("parse", "segment")}}


def test_every_choice_of_the_command_line_is_a_setting_or_says_where_it_lives():
    """Each option with ``choices`` in every command offers one tuple of rstkit.settings (a comma list adds
    ``all``; eval's --binarize adds rst-eval, its --compat), or is one of NOT_SETTINGS."""
    tuples = [value for name, value in vars(settings).items() if name.isupper() and isinstance(value, tuple)]
    parser = build_parser()
    checked = 0
    for command, sub in parser._subparsers._group_actions[0].choices.items():
        for action in sub._actions:
            if (not action.choices or action.help == argparse.SUPPRESS  # another spelling: the option's choices
                    or (command, action.option_strings[-1]) in NOT_SETTINGS):
                continue
            compat = {settings.RST_EVAL} if (command, action.option_strings[-1]) == ("eval", "--binarize") else set()
            offered = set(action.choices) - {"all"} - compat
            assert any(offered == set(values) for values in tuples), (command, action.option_strings)
            checked += 1
    assert checked == 17 and all(key[0] in parser._subparsers._group_actions[0].choices for key in NOT_SETTINGS)


def test_the_library_accepts_exactly_the_settings():
    from rstkit.labels import _MAPS

    assert sorted(_MAPS) == label_map_names() == sorted(settings.LABEL_MAPS)  # the built-in maps are the settings'
    assert all(get_label_map(name).name == name for name in settings.LABEL_MAPS)
    assert tuple(GOLD_BINARIZATIONS) == settings.BINARIZATIONS
    assert {(v.metric, v.average) for v in variants()} == {(m, a) for m in CONSTITUENCY for a in settings.AVERAGES}
    tree = RSTTree(leaf(1, ROOT, None), (EDU(1, "a"),))
    for mode in settings.BINARIZATIONS:
        binarize(tree, mode)
    with pytest.raises(RSTKitError, match="unknown binarization 'left'"):
        binarize(tree, "left")  # type: ignore[arg-type]
    for name, values in (("metric", ALL_METRICS), ("average", settings.AVERAGES),
                         ("binarize", settings.EVAL_BINARIZATIONS), ("missing", settings.MISSING_POLICIES),
                         ("unknown_labels", settings.UNKNOWN_LABEL_POLICIES),
                         ("sentence_initial", settings.SENTENCE_INITIAL)):
        family = {"sentence_initial": "segmentation"}.get(name)  # a family's own setting: with that family
        for value in values:
            EvalConfig(**{name: value, **({"metric": family} if family else {})})
        with pytest.raises(RSTKitError, match=f"{name} must be one of {', '.join(values)}"):
            EvalConfig(**{name: "other", **({"metric": family} if family else {})})
    assert EvalConfig(compat="rst-eval").compat == settings.RST_EVAL == "rst-eval"
    assert EvalConfig(compat="rst-eval").gold_binarization == settings.RST_EVAL


def test_rst_eval_is_spelled_once():
    """Outside settings.py the name of the reference mode appears only in prose, never as a string literal."""
    offenders = [f"{p.relative_to(PROJECT)}:{n}" for p in sorted((PROJECT / "rstkit").rglob("*.py"))
                 if p.name != "settings.py"
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"""["']rst-eval["']""", line)]
    assert offenders == []


def test_keeping_unknown_labels_has_one_name():
    """The setting is ``unknown_labels`` (``error`` or ``keep``) in every signature of the library, the label maps'
    included, and in the command line's namespace and fixes; the flag that sets it is ``--keep-unknown-labels``
    (issue 10's, a contract). Before issue 34: also ``passthrough=True`` and ``keep_unknown_labels``."""
    offenders = [f"{p.relative_to(PROJECT)}:{n}" for p in sorted((PROJECT / "rstkit").rglob("*.py"))
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\bpassthrough\b|\bkeep_unknown_labels\b", line)]
    assert offenders == []
    tree = RSTTree(leaf(1, ROOT, None), (EDU(1, "a"),))
    assert get_label_map("gum").map("Mystery-Thing", "keep") == "mystery-thing"
    assert get_label_map("gum").apply(tree, unknown_labels="keep") == tree
    with pytest.raises(TypeError, match="passthrough"):
        get_label_map("gum").apply(tree, passthrough=True)  # type: ignore[call-arg]
    for old in (True, False):  # 0.1.0's passthrough given by position: an error, never read as either setting
        with pytest.raises(RSTKitError, match=f"unknown_labels must be one of error, keep, not {old}"):
            get_label_map("gum").relabeller(old)  # type: ignore[arg-type]


def test_the_18_classes_in_both_spellings():
    """The reference spelling (educe's rst_112to18) and the canonical one (docs/formats.md#label-inventories)
    differ only in textual / textual-organization; rstdt18 maps both onto the reference's."""
    assert len(RSTDT18_CLASSES) == len(RSTDT18_CANONICAL) == 18
    assert [(a, b) for a, b in zip(RSTDT18_CLASSES, RSTDT18_CANONICAL) if a != b] == [
        ("textual", "textual-organization")]
    rstdt18 = get_label_map("rstdt18")
    assert [rstdt18.lookup(c) for c in RSTDT18_CANONICAL] == list(RSTDT18_CLASSES)


# -- the zero-division rule ----------------------------------------------------------------------
def test_divide_and_the_zero_division_rule():
    num, den = np.array([1.0, 0.0, 3.0]), np.array([4.0, 0.0, 0.0])
    assert divide(num, den).tolist() == [0.25, 0.0, 0.0]
    assert divide(num, den, zero_division=1).tolist() == [0.25, 1.0, 1.0]
    assert percent(1, 3).item() == 100 / 3 and percent(0, 0, zero_division=1).item() == 100.0
    for bad in (0.5, 2, True, "warn"):
        with pytest.raises(RSTKitError, match="zero_division must be 0 or 1"):
            divide(num, den, zero_division=bad)  # type: ignore[arg-type]


def counts(matched, gold, pred) -> Counts:
    """One document per column, the same counts for S, N, R and F."""
    rows = [np.array([row] * 4, dtype=np.int64) for row in (matched, gold, pred)]
    return Counts(*rows)


def test_zero_division_in_micro_and_macro_averages():
    """Document 1: 2 of 4 gold tuples found among 2 predicted (P 1, R 0.5); document 2: no gold, no
    prediction (0/0 for both). Micro pools: 2/2, 2/4 whatever the rule. Macro averages the
    per-document values: P (1 + z)/2, R (0.5 + z)/2, F (2/3 + z)/2 for the rule z."""
    c = counts([2, 0], [4, 0], [2, 0])
    micro = aggregate(c, "micro").f1["S"]
    assert micro == pytest.approx(100 * 2 * 1 * 0.5 / 1.5)
    assert aggregate(c, "micro", zero_division=1).f1["S"] == micro
    for z in (0, 1):
        scores = aggregate(c, "macro", zero_division=z)
        assert scores.precision["F"] == pytest.approx(100 * (1 + z) / 2)
        assert scores.recall["F"] == pytest.approx(100 * (0.5 + z) / 2)
        assert scores.f1["F"] == pytest.approx(100 * (2 / 3 + z) / 2)


def test_zero_division_in_relation_rows():
    """A label predicted but never in the gold: recall 0/0; one in the gold but never predicted: precision 0/0."""
    report = RelationReport(["elaboration", "joint"], np.array([0, 3]), np.array([2, 0]), np.array([0, 0]))
    rows = {r["label"]: r for r in report.rows()}
    assert (rows["elaboration"]["precision"], rows["elaboration"]["recall"]) == (0.0, 0.0)
    rows = {r["label"]: r for r in report.rows(zero_division=1)}
    assert (rows["elaboration"]["precision"], rows["elaboration"]["recall"], rows["elaboration"]["f1"]) == (
        0.0, 100.0, 0.0)
    assert (rows["joint"]["precision"], rows["joint"]["recall"]) == (100.0, 0.0)
