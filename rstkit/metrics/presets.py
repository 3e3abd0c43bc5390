"""Named peers' scoring procedures: each preset expands to explicit :class:`EvalConfig` settings.

A preset is a name for what a published parser's own scorer does (docs/presets.md has the
table: what each peer's code does, and in which of its files). ``EvalConfig.preset(name,
**overrides)`` expands it, ``overrides`` replacing any setting but those that make the procedure the
peer's (:data:`DEFINING`: its compatibility mode and quirks); the signature then shows every expanded
setting plus ``preset=NAME``. Presets that key spans as DMRST does (``first-edu-end``)
do so where spans are keyed by character, with ``edus="aligned"``; with gold EDUs both keyings
give the same scores.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..errors import RSTKitError
from ..settings import PRESETS, RST_EVAL

_SETTINGS: dict[str, dict[str, Any]] = {
    # educe / rst-eval: its binarization with bug B1, right_mixed before attachment trees, unknown labels kept
    RST_EVAL: {"metric": "rst-parseval", "average": "micro", "compat": RST_EVAL, "unknown_labels": "keep"},
    # DMRST_Parser Metric.py: use_org_Parseval False (Marcu's nodes; True: parseval), 2c/(g+p), span keys
    # (last token of the first EDU, last token of the last EDU); NN nodes' one relation on both children
    "dmrst": {"metric": "rst-parseval", "average": "micro", "labels": "raw", "nn_relation": "right",
              "span_key": "first-edu-end"},
    # isanlp_rst universal_parser: original Parseval, GUM labels cut to their class, its relation fixer
    "isanlp": {"metric": "parseval", "average": "micro", "labels": "gum", "relation_fixer": "isanlp-gum",
               "span_key": "first-edu-end"},
    # NTT RSTParser_EMNLP22: original Parseval, root counted, micro; its binarization keeps three children
    "ntt": {"metric": "parseval", "average": "micro", "labels": "raw", "nary_children": "first-three"},
    # dipo 0.2.1: parent-keyed original Parseval by default (its flag's names are reversed)
    "dipo": {"metric": "parseval", "average": "micro", "labels": "raw"},
    # crossGENRE4RST (Liu & Zeldes) eval/metrics.py: use_parseval=True (original Parseval, the NN relation from
    # the right child), R compares (span, relation), MACRO = F1 of mean P and mean R (DPLP's)
    "crossgenre": {"metric": "parseval", "average": "dplp", "labels": "gum", "nn_relation": "right"},
    # NeuralRST (Yu et al. 2018): Marcu's nodes, micro, labels as written
    "neuralrst": {"metric": "rst-parseval", "average": "micro", "labels": "raw"},
    # rstfinder: gold not binarized, every node but the root
    "rstfinder": {"metric": "rst-parseval", "average": "micro", "labels": "raw", "binarize": "none"},
}
#: each preset's settings (EvalConfig fields), before overrides
PRESET_SETTINGS = MappingProxyType({name: MappingProxyType(settings) for name, settings in _SETTINGS.items()})
#: the settings that make a procedure the peer's (its compatibility mode and quirks, with their values when the
#: preset does not set them): no override changes them, and a configuration named after a preset has them
DEFINING: MappingProxyType[str, Any] = MappingProxyType(
    {"compat": None, "nary_children": "all", "nn_relation": "left", "relation_fixer": "none"})


def defining_differences(name: str, settings: Mapping[str, Any]) -> list[str]:
    """The defining settings (:data:`DEFINING`) of preset ``name`` that ``settings`` give otherwise, each as
    ``setting='given'`` (empty where they agree; a setting ``settings`` lack takes its default)."""
    own = PRESET_SETTINGS[name]
    return [f"{key}={settings.get(key, default)!r}" for key, default in DEFINING.items()
            if settings.get(key, default) != own.get(key, default)]


def preset_settings(name: str, **overrides: Any) -> dict[str, Any]:
    """The EvalConfig settings of preset ``name`` with ``overrides``, ``preset_name`` included.

    ``span_key`` is kept only with ``edus="aligned"`` (unless an override names it): with gold
    EDUs it changes no score.

    >>> preset_settings("ntt")["nary_children"]
    'first-three'
    """
    if name not in PRESET_SETTINGS:
        raise RSTKitError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
    changed = defining_differences(name, {**PRESET_SETTINGS[name], **overrides})
    if changed:
        raise RSTKitError(f"preset {name!r} fixes {', '.join(preset_defining(name))}; an override cannot change "
                          f"them (given: {', '.join(changed)})")
    settings = dict(PRESET_SETTINGS[name])
    if overrides.get("edus", "gold") != "aligned":
        settings.pop("span_key", None)
    settings.update(overrides)
    settings["preset_name"] = name
    return settings


def preset_defining(name: str) -> list[str]:
    """The defining settings of preset ``name``, each as ``setting='value'``."""
    own = PRESET_SETTINGS[name]
    return [f"{key}={own.get(key, default)!r}" for key, default in DEFINING.items()]
