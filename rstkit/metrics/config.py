"""Every setting that changes a printed number, as one frozen object, and the signature made from it.

:class:`EvalConfig` holds the settings every metric family shares (metric, average, labels, EDUs,
binarization, compatibility mode, missing documents, leniency, statistics) and the family's own
settings (``settings``: its :class:`~rstkit.metrics.family.FamilySettings`, whose type the family
names, each family module defining its own), so that adding a family touches no line here.
The signature is one line, ``rstkit:key=value|key=value|...``, that pins the scoring settings
and the resampling statistics printed with the scores (:class:`Statistics`);
:meth:`EvalConfig.from_signature` reads it back.
"""
from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any

from .._version import __version__
from ..errors import RSTKitError
from ..settings import (
    AVERAGES,
    COMPAT_MODES,
    EDU_MODES,
    EVAL_BINARIZATIONS,
    MISSING_POLICIES,
    PRESETS,
    RST_EVAL,
    SPAN_KEYS,
    UNKNOWN_LABEL_POLICIES,
    Average,
    Binarization,
    Compat,
    EduMode,
    EvalBinarization,
    Metric,
    Missing,
    SpanKey,
    UnknownLabels,
)
from .family import FamilySettings, MetricFamily
from .presets import defining_differences, preset_defining
from .registry import FAMILIES, family

SIGNATURE_PREFIX = "rstkit:"
#: the signature keys of the settings every family shares, in the signature's order (the families' own keys,
#: :attr:`~rstkit.metrics.family.MetricFamily.descriptive_keys` and their settings', come beside them)
SIGNATURE_KEYS = ("metric", "avg", "edus", "span", "labels", "bin", "compat", "missing", "1edu", "lenient", "ci",
                  "boot", "trials", "seed", "preset", "docs", "version")
#: shared settings that the signature and the JSON settings show only where they differ from these defaults
#: (they came after the outputs they would otherwise change), each with its signature key
QUIET_DEFAULTS = {"span_key": ("span", "chars"), "preset_name": ("preset", None)}


@dataclass(frozen=True)
class Statistics:
    """Resampling settings behind the confidence intervals and p-values printed with scores.

    Each is None when nothing printed uses it: ``confidence`` (level of bootstrap intervals,
    in (0, 1)), ``n_bootstrap`` (resamples of the intervals and of the paired bootstrap test),
    ``n_trials`` (approximate randomization trials of the paired tests) and ``seed`` (of
    both; required by the others).
    """

    confidence: float | None = None
    n_bootstrap: int | None = None
    n_trials: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.confidence is not None and not (_is_real(self.confidence) and 0.0 < self.confidence < 1.0):
            raise RSTKitError(f"confidence must be a number between 0 and 1 (exclusive), not {self.confidence!r}")
        for name, low in (("n_bootstrap", 1), ("n_trials", 1), ("seed", 0)):
            value = getattr(self, name)
            if value is not None and not (_is_int(value) and value >= low):
                raise RSTKitError(f"{name} must be an integer >= {low}, not {value!r}")
        if self.confidence is not None and self.n_bootstrap is None:
            raise RSTKitError("a bootstrap confidence level needs a number of resamples (n_bootstrap)")
        if self.seed is None and (self.n_bootstrap is not None or self.n_trials is not None):
            raise RSTKitError("resampling needs a seed")

    @classmethod
    def for_run(cls, confidence: float | None, n_bootstrap: int, n_trials: int, seed: int,
                paired: bool) -> Statistics:
        """The settings a run uses: bootstrap intervals when ``confidence`` is given, paired tests
        (bootstrap and approximate randomization) when ``paired``; empty when neither."""
        if confidence is None and not paired:
            return cls()
        return cls(confidence, n_bootstrap, n_trials if paired else None, seed)

    def filled(self, confidence: float | None = None, n_bootstrap: int | None = None, n_trials: int | None = None,
               seed: int | None = None) -> tuple[float, int, int, int]:
        """``(confidence, n_bootstrap, n_trials, seed)``: each setting given, else this one's, else
        :data:`DEFAULT_STATISTICS`'; checked as :class:`Statistics` checks them."""
        chosen = (_given(confidence, self.confidence, DEFAULT_STATISTICS.confidence),
                  _given(n_bootstrap, self.n_bootstrap, DEFAULT_STATISTICS.n_bootstrap),
                  _given(n_trials, self.n_trials, DEFAULT_STATISTICS.n_trials),
                  _given(seed, self.seed, DEFAULT_STATISTICS.seed))
        Statistics(*chosen)  # an RSTKitError for a setting out of range
        return chosen

    def signature_parts(self) -> list[tuple[str, str]]:
        names = (("ci", self.confidence), ("boot", self.n_bootstrap), ("trials", self.n_trials), ("seed", self.seed))
        return [(key, repr(value)) for key, value in names if value is not None]


def _given(*values: Any) -> Any:
    """The first value that is not None."""
    return next(v for v in values if v is not None)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_real(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


#: what intervals and paired tests use where neither the caller nor the configuration says
DEFAULT_STATISTICS = Statistics(confidence=0.95, n_bootstrap=1000, n_trials=10000, seed=12345)


@dataclass(frozen=True, init=False)
class EvalConfig:
    """Settings of one evaluation.

    metric
        the metric family (:mod:`rstkit.metrics.registry`). ``rst-parseval``: Marcu's encoding,
        every node but the root, EDU leaves included (RST-Parseval). ``parseval``: labelled
        attachment decisions, root included, leaves excluded (original Parseval, Morey et al.
        2017). ``dependency``: one head-ordered dependency per EDU (Morey et al. 2018).
    average
        ``micro`` pools tuples over the corpus; ``macro`` is the mean of per-document
        P, R and F1 (rst-eval's per-document mode); ``dplp`` is the harmonic mean of
        per-document-averaged precision and recall (Ji & Eisenstein's evaluator).
    labels / unknown_labels
        relation label map (``raw``, ``rstdt18``, ``gum``) and what an unknown label does
        (``error``, or ``keep`` it lowercased as the reference does); by default ``keep`` under
        rst-eval compatibility (``compat``), else ``error``.
    binarize
        binarization of gold and predicted trees: ``right`` (right-heavy, fully
        recursive), ``right_mixed`` (educe's default: S N S becomes ((S N) S), bug B1
        included) or ``none``. None (the default) is the metric family's default: ``right``
        for the constituency metrics, ``none`` for dependencies (converted as they are).
        :meth:`replace` moving to another metric moves a default binarization to the new
        metric's default and keeps any other.
    compat
        ``rst-eval`` reproduces the reference implementation (educe / rst-eval): its
        right binarization with bug B1, ``right_mixed`` re-binarization for attachment
        trees, pass-through of unknown labels. This is the library's one way to ask for the
        reference procedure (the command line's ``--compat rst-eval``; ``--preset rst-eval`` is
        the same settings named as a preset).
    missing
        predicted documents that are absent: ``error``, ``skip`` (score the
        intersection) or ``zero`` (empty prediction).
    edus
        ``gold``: gold and prediction must have the same EDUs (spans are compared by EDU
        number). ``aligned``: spans are compared by character (first and last character of
        the text, whitespace aside), so predictions that segment their own EDUs are scored;
        tokenizer rewrites are undone and small differences aligned (:mod:`rstkit.metrics.aligned`).
    span_key
        with ``edus="aligned"`` only: ``chars`` keys a span by its first and last character;
        ``first-edu-end`` by the last character of its first EDU and of its last EDU, as DMRST and
        isanlp_rst key spans by tokens (:func:`rstkit.metrics.aligned.key_spans`).
    lenient
        repair inconsistent extents when reading and score documents whose gold and
        predicted EDU counts differ (as the reference does), with warnings. With
        ``edus="aligned"``, score documents where one side lacks a stretch of the other's text
        (:mod:`rstkit.metrics.aligned`), which is otherwise an error.
    exclude_single_edu
        drop 1-EDU documents (0 tuples) from the averages; by default they count, as in
        the reference (F1 = 0 in macro averages).
    statistics
        the resampling settings of intervals and paired tests printed with the scores
        (:class:`Statistics`; empty by default).
    preset_name
        the name of the peer procedure (:mod:`rstkit.metrics.presets`) these settings expand,
        shown in the signature; :meth:`preset` makes such a configuration.
    settings
        the metric family's own settings (:attr:`MetricFamily.settings_type
        <rstkit.metrics.family.MetricFamily.settings_type>`), given as keywords by their names (the one way):
        ``dep_encoding`` of ``dependency`` (:class:`~rstkit.metrics.dependency.DependencySettings`),
        ``nary_children``, ``nn_relation`` and ``relation_fixer`` of the constituency metrics (peers'
        quirks, :class:`~rstkit.metrics.quirks.ConstituencySettings`), ``sentence_initial`` of
        ``segmentation`` (:class:`~rstkit.metrics.segmentation.SegmentationSettings`); another family's
        setting is an error. The family's defaults where not given.

    >>> config = EvalConfig(metric="rst-parseval", average="macro", labels="rstdt18")
    >>> config.signature(4)
    'rstkit:metric=rst-parseval|avg=macro|tuples=nodes-root+leaves|edus=gold|labels=rstdt18...|docs=4|version=...'
    >>> EvalConfig(metric="dependency", dep_encoding="tree").settings
    DependencySettings(dep_encoding='tree')
    >>> EvalConfig(average="mean")
    Traceback (most recent call last):
    ...
    rstkit.errors.RSTKitError: ...
    """

    metric: Metric
    average: Average
    labels: str
    unknown_labels: UnknownLabels
    binarize: EvalBinarization
    compat: Compat | None
    missing: Missing
    edus: EduMode
    lenient: bool
    exclude_single_edu: bool
    statistics: Statistics
    span_key: SpanKey
    preset_name: str | None
    settings: FamilySettings

    def __init__(self, metric: Metric = "parseval", average: Average = "micro", labels: str = "raw",
                 unknown_labels: UnknownLabels | None = None, binarize: EvalBinarization | None = None,
                 compat: Compat | None = None, missing: Missing = "error", edus: EduMode = "gold",
                 lenient: bool = False, exclude_single_edu: bool = False, statistics: Statistics = Statistics(), *,
                 span_key: SpanKey = "chars", preset_name: str | None = None, **family_settings: Any) -> None:
        chosen = family(metric)  # an RSTKitError naming the metrics for an unknown one
        settings = _family_settings(chosen, family_settings)
        given = {"metric": metric, "average": average, "labels": labels,
                 "unknown_labels": unknown_labels if unknown_labels is not None else "keep" if compat else "error",
                 "binarize": binarize if binarize is not None else chosen.default_binarization, "compat": compat,
                 "missing": missing, "edus": edus, "lenient": lenient, "exclude_single_edu": exclude_single_edu,
                 "statistics": statistics, "span_key": span_key, "preset_name": preset_name, "settings": settings}
        for name, value in given.items():
            object.__setattr__(self, name, value)
        self._check()

    def _check(self) -> None:
        for name, allowed in (("average", AVERAGES), ("binarize", EVAL_BINARIZATIONS),
                              ("missing", MISSING_POLICIES), ("edus", EDU_MODES),
                              ("unknown_labels", UNKNOWN_LABEL_POLICIES), ("span_key", SPAN_KEYS)):
            if getattr(self, name) not in allowed:
                raise RSTKitError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if self.edus == "aligned" and not self.family.aligned_edus:
            raise RSTKitError(f"{self.metric} keys what it scores by the gold's EDUs and cannot score aligned EDUs "
                              "(edus='aligned'); score it with edus='gold'")
        if self.compat is not None and self.compat not in COMPAT_MODES:
            raise RSTKitError(f"compat must be one of {', '.join(COMPAT_MODES)}, not {self.compat!r}")
        if self.preset_name is not None and self.preset_name not in PRESETS:
            raise RSTKitError(f"preset must be one of {', '.join(PRESETS)}, not {self.preset_name!r}")
        if self.preset_name is not None:
            changed = defining_differences(self.preset_name, self.all_settings())
            if changed:
                raise RSTKitError(f"preset {self.preset_name!r} fixes {', '.join(preset_defining(self.preset_name))}; "
                                  f"these settings have {', '.join(changed)}")
        if self.span_key != "chars" and self.edus != "aligned":
            raise RSTKitError(f"span_key={self.span_key!r} keys spans of aligned EDUs (edus='aligned'); with gold "
                              "EDUs both keyings give the same scores, so it is refused")
        self.settings.check(self)
        if not isinstance(self.statistics, Statistics):
            raise RSTKitError(f"statistics must be a Statistics object, not {self.statistics!r}")
        from ..labels import get_label_map

        get_label_map(self.labels)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> EvalConfig:
        """The settings of the peer procedure ``name`` (:data:`rstkit.metrics.presets.PRESET_SETTINGS`),
        each of ``overrides`` replacing the preset's but for those that define it (its compatibility mode and
        quirks, :data:`rstkit.metrics.presets.DEFINING`: refused); the signature shows them and ``preset=NAME``."""
        from .presets import preset_settings

        return cls(**preset_settings(name, **overrides))

    def replace(self, **changes: Any) -> EvalConfig:
        """A copy with ``changes`` (settings by name, the family's own as keywords, checked as the constructor
        checks them); a new ``metric`` takes its family's default binarization where this configuration has
        its own family's default (and ``binarize`` is not changed too), and its family's settings: those
        ``changes`` give, else the defaults (to a family of the same settings type, such as the two constituency
        families, this one's are kept but for ``changes``)."""
        shared = [f.name for f in fields(self) if f.name != "settings"]
        metric = changes.get("metric", self.metric)
        if "metric" in changes and "binarize" not in changes and self.binarize == self.family.default_binarization:
            changes["binarize"] = None
        kept = asdict(self.settings) if family(metric).settings_type is type(self.settings) else {}
        return EvalConfig(**{**{name: getattr(self, name) for name in shared}, **kept, **changes})

    @property
    def family(self) -> MetricFamily:
        """The metric family this configuration scores."""
        return family(self.metric)

    @property
    def gold_binarization(self) -> Binarization:
        """Binarization mode (rstkit.transform) applied to gold trees."""
        if self.binarize == "right" and self.compat == RST_EVAL:
            return RST_EVAL
        return self.binarize

    def all_settings(self) -> dict[str, Any]:
        """Every setting by name, the family's own among them."""
        shared = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "settings"}
        return {**shared, **asdict(self.settings)}

    def as_dict(self) -> dict[str, Any]:
        """Every setting by name, less those shown only where they differ from their defaults and do not
        (:data:`QUIET_DEFAULTS`, the family's quiet settings). The family's own come after ``statistics``,
        its quiet ones (which came later) after ``span_key``, before ``preset_name``."""
        shared = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "settings"}
        shown = {name: asdict(value) if isinstance(value, Statistics) else value for name, value in shared.items()
                 if not (name in QUIET_DEFAULTS and value == QUIET_DEFAULTS[name][1])}
        own = self.settings.items()
        loud = {name: value for name, value in own.items() if name not in self.settings.quiet}
        quiet = {name: value for name, value in own.items() if name in self.settings.quiet}
        span, preset = ({name: shown.pop(name)} if name in shown else {} for name in QUIET_DEFAULTS)
        return {**shown, **loud, **span, **quiet, **preset}

    def shared_settings(self) -> dict[str, Any]:
        """The settings every metric family reads (those configurations scored together share)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("metric", "average", "binarize", "settings")}

    def signature(self, n_documents: int) -> str:
        """A line that pins every setting that changes a printed number (sacrebleu-style).

        After ``avg`` come the metric family's own items (``tuples`` of the constituency metrics,
        ``dep`` of dependencies); ``bin`` is the binarization of gold and predicted trees alike, after
        it the family's items about binarization (``bin.att``, original Parseval under rst-eval
        compatibility only: the re-binarization before attachment trees are built; the peers' quirks);
        ``ci``, ``boot``, ``trials`` and ``seed`` appear when statistics are printed.
        """
        family = self.family
        parts = [
            ("metric", self.metric),
            ("avg", self.average),
            *family.signature_items(self),
            ("edus", self.edus),
            *self._quiet_items("span_key"),
            ("labels", self.labels + ("" if self.labels == "raw" else f"+unknown:{self.unknown_labels}")),
            ("bin", self.gold_binarization),
            *family.binarization_items(self),
            ("compat", self.compat or "none"),
            ("missing", self.missing),
            ("1edu", "excluded" if self.exclude_single_edu else "included"),
            ("lenient", "yes" if self.lenient else "no"),
            *self.statistics.signature_parts(),
            *self._quiet_items("preset_name"),
            ("docs", str(n_documents)),
            ("version", __version__),
        ]
        return SIGNATURE_PREFIX + "|".join(f"{k}={v}" for k, v in parts)

    def _quiet_items(self, *names: str) -> list[tuple[str, str]]:
        """The signature items of ``names`` (:data:`QUIET_DEFAULTS`) that differ from their defaults."""
        return [(QUIET_DEFAULTS[name][0], str(getattr(self, name))) for name in names
                if getattr(self, name) != QUIET_DEFAULTS[name][1]]

    @classmethod
    def from_signature(cls, text: str) -> EvalConfig:
        """The configuration a signature pins, statistics included.

        The signature is checked whole: every key must be known and consistent with the
        others (it must be what the configuration read would print, ``version`` aside).
        With the ``raw`` label map, whose identity mapping knows every label, the signature
        does not pin ``unknown_labels``; it comes back as the constructor's default
        (``keep`` under rst-eval compatibility, else ``error``). A signature without ``edus``
        (printed before that setting existed) reads as ``edus=gold``, the only mode then.
        """
        items = parse_signature(text)
        items.setdefault("edus", "gold")
        own = {key: name for f in FAMILIES.values() for key, name in f.settings_type.signature_keys.items()}
        known = {*SIGNATURE_KEYS, *own, *(key for f in FAMILIES.values() for key in f.descriptive_keys)}
        unknown_keys = [key for key in items if key not in known]
        if unknown_keys:
            raise RSTKitError(f"signature has unknown key(s) {', '.join(unknown_keys)}: {text}")
        missing = [key for key in ("metric", "avg", "labels", "bin", "compat", "missing", "1edu", "lenient", "docs")
                   if key not in items]
        if missing:
            raise RSTKitError(f"signature lacks {missing[0]}=: {text}")
        labels, _, unknown = items["labels"].partition("+unknown:")
        compat = None if items["compat"] == "none" else items["compat"]
        n_documents = _number(items, "docs", int, "an integer")
        if n_documents < 0:
            raise RSTKitError(f"signature item docs={items['docs']} is not a number of documents (>= 0): {text}")
        numbers = {name: _number(items, key, int, "an integer") for name, key in _STATISTICS_KEYS.items()
                   if key in items and name != "confidence"}
        try:
            statistics = Statistics(confidence=_number(items, "ci", float, "a number") if "ci" in items else None,
                                    **numbers)
            settings: dict[str, Any] = {  # strings from the text: the constructor checks each choice
                "metric": items["metric"], "average": items["avg"], "labels": labels,
                "unknown_labels": unknown or None,
                "binarize": "right" if items["bin"] == RST_EVAL else items["bin"], "compat": compat,
                "missing": items["missing"], "edus": items["edus"], "lenient": _flag(items, "lenient", "yes", "no"),
                "exclude_single_edu": _flag(items, "1edu", "excluded", "included"), "statistics": statistics,
                **{name: items[key] for name, (key, _) in QUIET_DEFAULTS.items() if key in items}}
            if items["metric"] in FAMILIES:  # the family's own settings (another family's are inconsistent below)
                keys = FAMILIES[items["metric"]].settings_type.signature_keys
                settings.update({name: items[key] for key, name in keys.items() if key in items})
            config = cls(**settings)
        except RSTKitError as exc:
            raise RSTKitError(f"signature{_item_named(items, exc.message, own)}: {exc.message}: {text}") from None
        again = parse_signature(config.signature(n_documents))
        for key in dict.fromkeys([*items, *again]):
            if key != "version" and items.get(key) != again.get(key):
                raise RSTKitError(f"signature is inconsistent: {key}={items.get(key, '(absent)')} where these "
                                  f"settings give {key}={again.get(key, '(absent)')}: {text}")
        return config


def _family_settings(chosen: MetricFamily, given: dict[str, Any]) -> FamilySettings:
    """``chosen``'s settings from ``given`` (its defaults where not given); a setting it lacks is an error
    naming the families that have it."""
    own = chosen.own_settings
    for name in given:
        if name not in own:
            having = [f.name for f in FAMILIES.values() if name in f.own_settings]
            if not having:
                raise RSTKitError(f"unknown setting {name}; settings: {', '.join(_setting_names())}")
            raise RSTKitError(f"{name} is a setting of {', '.join(having)}, not of {chosen.name}")
    return chosen.settings_type(**given)


def setting_defaults() -> dict[str, Any]:
    """Every setting's default by name: the constructor's (None where the default follows other settings:
    ``binarize``, ``unknown_labels``), and each family's own."""
    shared = {name: parameter.default for name, parameter in inspect.signature(EvalConfig).parameters.items()
              if parameter.default is not inspect.Parameter.empty}
    return {**shared, **{f.name: f.default for family in FAMILIES.values() for f in fields(family.settings_type)}}


def _setting_names() -> list[str]:
    """Every setting's name: the shared ones, then each family's own."""
    shared = [f.name for f in fields(EvalConfig) if f.name != "settings"]
    return list(dict.fromkeys([*shared, *(name for f in FAMILIES.values() for name in f.own_settings)]))


def parse_signature(text: str) -> dict[str, str]:
    """The ``key=value`` items of a signature, in order (duplicates and syntax checked)."""
    if not isinstance(text, str):
        raise RSTKitError(f"a signature is a string (rstkit:key=value|...), not {type(text).__name__}")
    text = text.strip()
    if not text.startswith(SIGNATURE_PREFIX):
        raise RSTKitError(f"not an rstkit signature (it starts with {SIGNATURE_PREFIX!r}): {text!r}")
    items: dict[str, str] = {}
    for item in text[len(SIGNATURE_PREFIX):].split("|"):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RSTKitError(f"signature item {item!r} is not key=value: {text}")
        if key in items:
            raise RSTKitError(f"signature gives {key} twice: {text}")
        items[key] = value
    return items


#: the signature keys of the statistics' settings
_STATISTICS_KEYS = {"confidence": "ci", "n_bootstrap": "boot", "n_trials": "trials", "seed": "seed"}
#: the signature keys of the settings every family has (``unknown_labels`` is read from ``labels``)
_SETTING_KEYS = {"metric": "metric", "average": "avg", "labels": "labels", "unknown_labels": "labels",
                 "binarize": "bin", "compat": "compat", "missing": "missing", "edus": "edus", "lenient": "lenient",
                 "exclude_single_edu": "1edu", **_STATISTICS_KEYS,
                 **{name: key for name, (key, _) in QUIET_DEFAULTS.items()}, "preset": "preset"}


def _item_named(items: dict[str, str], message: str, own: dict[str, str]) -> str:
    """`` item KEY=VALUE`` of the first item of the signature whose setting ``message`` names (a setting's
    error names the setting), or nothing."""
    fields = {**_SETTING_KEYS, **{field: key for key, field in own.items()}}
    for pattern in (r"^{}\b", r"\b{}\b"):  # the setting the message is about, else the first it names
        for key, value in items.items():
            if any(re.search(pattern.format(re.escape(field)), message) for field, k in fields.items() if k == key):
                return f" item {key}={value}"
    return ""


def _number(items: dict[str, str], key: str, kind: Callable[[str], Any], what: str) -> Any:
    """The number of signature item ``key`` (an RSTKitError naming the item where it is none)."""
    try:
        return kind(items[key])
    except ValueError:
        raise RSTKitError(f"signature item {key}={items[key]} is not {what}: {SIGNATURE_PREFIX}"
                          + "|".join(f"{k}={v}" for k, v in items.items())) from None


def _flag(items: dict[str, str], key: str, yes: str, no: str) -> bool:
    if items[key] not in (yes, no):
        raise RSTKitError(f"signature: {key} must be {yes} or {no}, not {items[key]!r}")
    return items[key] == yes
