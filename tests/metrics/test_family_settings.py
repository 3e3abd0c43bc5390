"""Each metric family owns its settings (rstkit.metrics.family.FamilySettings): EvalConfig holds the shared
ones and the family's, a new family is one module and one registry line, and no family module imports the
configuration (so the metrics package has no import circle through it)."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import pytest

from rstkit import read_tree
from rstkit.corpus.segmentations import read_segmentation_sets
from rstkit.errors import CorpusError, RSTKitError
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.family import FamilySettings, MetricFamily, Row, Scoring
from rstkit.metrics.registry import FAMILIES
from rstkit.tree import RSTTree

METRICS = Path(__file__).resolve().parents[2] / "rstkit" / "metrics"


@dataclass(frozen=True)
class LengthSettings(FamilySettings):
    """The toy family's one setting: EDU lengths in characters or in words."""

    unit: str = "chars"

    signature_keys = MappingProxyType({"unit": "unit"})

    def __post_init__(self) -> None:
        if self.unit not in ("chars", "words"):
            raise RSTKitError(f"unit must be one of chars, words, not {self.unit!r}")


class EDULengths(MetricFamily):
    """A family written outside rstkit: one row per EDU, its length as its value."""

    name = "edu-lengths"
    title = "EDU lengths"
    columns = ("length",)
    label_columns = frozenset()
    measures = MappingProxyType({"E": (), "L": ("length",)})
    table_measures = ("E", "L")
    relation_column = ""
    default_binarization = "none"
    settings_type = LengthSettings
    descriptive_keys = ("edu",)
    one_edu_rows = True

    def rows(self, tree: RSTTree, config: Scoring, *, gold: bool) -> tuple[list[Row], int | None]:
        words = LengthSettings.of(config).unit == "words"
        return [(i, i, len(edu.text.split()) if words else len(edu.text)) for i, edu in enumerate(tree.edus, 1)], None

    def signature_items(self, config: Scoring) -> list[tuple[str, str]]:
        return [("edu", "spans"), *LengthSettings.of(config).signature_items()]


def test_a_new_family_is_one_registry_line(monkeypatch):
    """Registered (the one line), the toy family is configured, signed, read back and scored with no other change."""
    monkeypatch.setitem(FAMILIES, EDULengths.name, EDULengths())
    config = EvalConfig(metric="edu-lengths", unit="words")
    assert config.settings == LengthSettings("words")
    signature = config.signature(1)
    assert signature.startswith("rstkit:metric=edu-lengths|avg=micro|edu=spans|unit=words|edus=gold|")
    assert EvalConfig.from_signature(signature) == config
    assert config.as_dict()["unit"] == "words"
    with pytest.raises(RSTKitError, match="unit must be one of chars, words, not 'lines'"):
        EvalConfig(metric="edu-lengths", unit="lines")
    with pytest.raises(RSTKitError, match="unit is a setting of edu-lengths, not of parseval"):
        EvalConfig(metric="parseval", unit="words")
    gold = read_tree("corpora/sample/gold/sample_library.dis")
    # a document scored against itself matches every row under every measure
    assert score_documents({"d": gold}, {"d": gold}, config).scores == {"E": 100.0, "L": 100.0}


def test_another_familys_setting_is_refused():
    """dep_encoding on parseval used to be accepted and dropped; it names the family that has it."""
    with pytest.raises(RSTKitError, match="dep_encoding is a setting of dependency, not of parseval"):
        EvalConfig(metric="parseval", dep_encoding="tree")
    with pytest.raises(RSTKitError, match="sentence_initial is a setting of segmentation, not of dependency"):
        EvalConfig(metric="dependency", sentence_initial="dropped")
    with pytest.raises(RSTKitError, match="unknown setting label_map"):
        EvalConfig(label_map="gum")  # the label map is ``labels``, one name


def test_settings_follow_the_family_on_replace():
    ntt = EvalConfig.preset("ntt", metric="rst-parseval")
    assert ntt.replace(metric="parseval", preset_name=None).settings == ntt.settings  # same settings type: kept
    assert EvalConfig(metric="dependency", dep_encoding="tree").replace(metric="parseval").settings.has_quirks is False
    assert EvalConfig(metric="dependency").replace(dep_encoding="tree,chain").settings.encodings == ("tree", "chain")


@pytest.mark.parametrize("metric", ["secondary-edges", "signals"])
def test_erst_signatures_read_back(metric):
    """Their own keys (``edges=``, ``signals=``) were unknown to from_signature, which refused them."""
    config = EvalConfig(metric=metric, labels="gum")
    assert EvalConfig.from_signature(config.signature(3)) == config


def test_the_reference_procedure_is_compat_in_the_api():
    """One spelling: ``compat``; unknown labels pass through by default under it, as the reference does."""
    assert not hasattr(EvalConfig, "rst_eval")
    assert EvalConfig(compat="rst-eval").unknown_labels == "keep"
    assert EvalConfig(compat="rst-eval", unknown_labels="error").unknown_labels == "error"
    assert EvalConfig().unknown_labels == "error"


def test_no_family_module_imports_the_configuration():
    """Families read a configuration as rstkit.metrics.family.Scoring: importing config (or the registry, which
    imports them) from a family module is the circle config -> registry -> family -> config."""
    families = {type(f).__module__.rsplit(".", 1)[-1] for f in FAMILIES.values()}
    below = families | {"family", "quirks", "prepared", "edus"}
    offenders = []
    for name in sorted(below):
        tree = ast.parse((METRICS / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in ("config", "registry"):
                offenders.append(f"{name}.py:{node.lineno} imports .{node.module}")
    assert offenders == []


def test_disrpt_sources_are_read_in_corpus(tmp_path):
    """The reading of an evaluation's DISRPT files lives in rstkit.corpus; each document made by the source's
    function; an id in two files of one source is an error naming both files."""
    one = "# newdoc id = a\n1\tHello\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n\n"
    two = "# newdoc id = a\n1\tBye\t_\t_\t_\t_\t_\t_\t_\tSeg=B-seg\n\n"
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "one.tok").write_text(one, encoding="utf-8")
    (tmp_path / "x" / "two.tok").write_text(two, encoding="utf-8")
    single = tmp_path / "x" / "one.tok"
    sets = read_segmentation_sets([(single, lambda d: d.tokens), None, (tmp_path / "x", lambda d: d.doc_id)], jobs=1)
    assert sets[0] == {"a": ("Hello",)} and sets[1] is None
    assert isinstance(sets[2], CorpusError)
    assert f"is in {single} and in {tmp_path / 'x' / 'two.tok'}" in str(sets[2])
