"""Every setting that changes a printed number, as one frozen object, and the signature made from it.

The signature is one line, ``rstkit:key=value|key=value|...``, that pins the scoring settings
(:class:`EvalConfig`) and the resampling statistics printed with the scores
(:class:`Statistics`); :meth:`EvalConfig.from_signature` reads it back.
"""
from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, cast

from .._version import __version__
from ..errors import RSTKitError
from ..settings import (
    AVERAGES,
    COMPAT_MODES,
    DEP_ENCODINGS,
    EDU_MODES,
    EVAL_BINARIZATIONS,
    MISSING_POLICIES,
    NARY_CHILDREN,
    NN_RELATIONS,
    PRESETS,
    RELATION_FIXERS,
    RST_EVAL,
    SENTENCE_INITIAL,
    SPAN_KEYS,
    UNKNOWN_LABEL_POLICIES,
    Average,
    Binarization,
    Compat,
    DependencyEncoding,
    EduMode,
    EvalBinarization,
    Metric,
    Missing,
    NaryChildren,
    NNRelation,
    RelationFixer,
    SentenceInitial,
    SpanKey,
    UnknownLabels,
)
from .presets import DEFINING, defining_differences, preset_defining

if TYPE_CHECKING:
    from .family import MetricFamily

SIGNATURE_PREFIX = "rstkit:"
SIGNATURE_KEYS = ("metric", "avg", "tuples", "dep", "edus", "span", "labels", "bin", "bin.att", "nary", "nn", "fixer",
                  "compat", "missing", "1edu", "lenient", "ci", "boot", "trials", "seed", "preset", "docs", "version")
#: settings that the signature and the JSON settings show only where they differ from these defaults (they came
#: after the outputs they would otherwise change), each with its signature key
QUIET_DEFAULTS = {"span_key": ("span", "chars"), "nary_children": ("nary", "all"), "nn_relation": ("nn", "left"),
                  "relation_fixer": ("fixer", "none"), "preset_name": ("preset", None)}
#: the segmentation family's own keys (after ``avg``)
SEGMENTATION_SIGNATURE_KEYS = ("seg", "docinit", "sentinit")


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

    @classmethod
    def used(cls, confidence: float | None, n_bootstrap: int, n_trials: int, seed: int,
             paired: bool) -> Statistics:
        """Deprecated name of :meth:`for_run`."""
        warnings.warn("Statistics.used is deprecated: use Statistics.for_run", DeprecationWarning, stacklevel=2)
        return cls.for_run(confidence, n_bootstrap, n_trials, seed, paired)

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


@dataclass(frozen=True)
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
        (``error``, or ``keep`` it lowercased as the reference does).
    binarize
        binarization of gold and predicted trees: ``right`` (right-heavy, fully
        recursive), ``right_mixed`` (educe's default: S N S becomes ((S N) S), bug B1
        included) or ``none``. None (the default) is the metric family's default: ``right``
        for the constituency metrics, ``none`` for dependencies (converted as they are).
        :meth:`with_` moving to another metric moves a default binarization to the new
        metric's default and keeps any other.
    compat
        ``rst-eval`` reproduces the reference implementation (educe / rst-eval): its
        right binarization with bug B1, ``right_mixed`` re-binarization for attachment
        trees, pass-through of unknown labels.
    missing
        predicted documents that are absent: ``error``, ``skip`` (score the
        intersection) or ``zero`` (empty prediction).
    edus
        ``gold``: gold and prediction must have the same EDUs (spans are compared by EDU
        number). ``aligned``: spans are compared by character (first and last character of
        the text, whitespace aside), so predictions that segment their own EDUs are scored;
        tokenizer rewrites are undone and small differences aligned (:mod:`rstkit.metrics.aligned`).
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
    dep_encoding
        dependencies only: how n-ary nodes become dependencies, ``chain`` (the reference's
        default) or ``tree``, or ``GOLD,PRED`` to encode the two sides differently (``tree,chain``
        is what showdown.py does by default).
    span_key
        with ``edus="aligned"`` only: ``chars`` keys a span by its first and last character;
        ``first-edu-end`` by the last character of its first EDU and of its last EDU, as DMRST and
        isanlp_rst key spans by tokens (:func:`rstkit.metrics.aligned.key_spans`).
    nary_children, nn_relation, relation_fixer
        peers' quirks, constituency metrics only (:mod:`rstkit.metrics.quirks`): NTT's binarization of
        n-ary nodes whose children's labels differ (``first-three``), the relation of a multinuclear
        node from its ``right`` child, and isanlp_rst's relation fixer tables.
    preset_name
        the name of the peer procedure (:mod:`rstkit.metrics.presets`) these settings expand,
        shown in the signature; :meth:`preset` makes such a configuration.
    sentence_initial
        segmentation only: ``counted`` (the default) or ``dropped``, the DISRPT scorer's ``-nb``:
        every sentence-initial token is no boundary on both sides (sentences: ``.conllu`` files, or
        trees whose EDUs carry sentence numbers).

    >>> config = EvalConfig(metric="rst-parseval", average="macro", labels="rstdt18")
    >>> config.signature(4)
    'rstkit:metric=rst-parseval|avg=macro|tuples=nodes-root+leaves|edus=gold|labels=rstdt18...|docs=4|version=...'
    >>> EvalConfig(average="mean")
    Traceback (most recent call last):
    ...
    rstkit.errors.RSTKitError: ...
    """

    metric: Metric = "parseval"
    average: Average = "micro"
    labels: str = "raw"
    unknown_labels: UnknownLabels = "error"
    binarize: EvalBinarization = None  # type: ignore[assignment]  # None: the family's default, set at once
    compat: Compat | None = None
    missing: Missing = "error"
    edus: EduMode = "gold"
    lenient: bool = False
    exclude_single_edu: bool = False
    statistics: Statistics = Statistics()
    dep_encoding: str = "chain"
    span_key: SpanKey = "chars"
    nary_children: NaryChildren = "all"
    nn_relation: NNRelation = "left"
    relation_fixer: RelationFixer = "none"
    preset_name: str | None = None
    sentence_initial: SentenceInitial = "counted"

    def __post_init__(self) -> None:
        from .registry import ALL_METRICS, family

        if self.metric not in ALL_METRICS:
            raise RSTKitError(f"metric must be one of {', '.join(ALL_METRICS)}, not {self.metric!r}")
        if self.binarize is None:
            object.__setattr__(self, "binarize", family(self.metric).default_binarization)
        if self.edus == "aligned" and not family(self.metric).aligned_edus:
            raise RSTKitError(f"{self.metric} keys what it scores by the gold's EDUs and cannot score aligned EDUs "
                              "(edus='aligned'); score it with edus='gold'")
        encodings = self.dep_encoding.split(",") if isinstance(self.dep_encoding, str) else [None]
        if len(encodings) > 2 or any(e not in DEP_ENCODINGS for e in encodings):
            raise RSTKitError(f"dep_encoding must be one of {', '.join(DEP_ENCODINGS)} or GOLD,PRED of them, "
                              f"not {self.dep_encoding!r}")
        for name, allowed in (("average", AVERAGES), ("binarize", EVAL_BINARIZATIONS),
                              ("missing", MISSING_POLICIES), ("edus", EDU_MODES),
                              ("unknown_labels", UNKNOWN_LABEL_POLICIES), ("span_key", SPAN_KEYS),
                              ("nary_children", NARY_CHILDREN), ("nn_relation", NN_RELATIONS),
                              ("relation_fixer", RELATION_FIXERS), ("sentence_initial", SENTENCE_INITIAL)):
            if getattr(self, name) not in allowed:
                raise RSTKitError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if self.compat is not None and self.compat not in COMPAT_MODES:
            raise RSTKitError(f"compat must be one of {', '.join(COMPAT_MODES)}, not {self.compat!r}")
        if self.preset_name is not None and self.preset_name not in PRESETS:
            raise RSTKitError(f"preset must be one of {', '.join(PRESETS)}, not {self.preset_name!r}")
        if self.preset_name is not None:
            changed = defining_differences(self.preset_name, {key: getattr(self, key) for key in DEFINING})
            if changed:
                raise RSTKitError(f"preset {self.preset_name!r} fixes {', '.join(preset_defining(self.preset_name))}; "
                                  f"these settings have {', '.join(changed)}")
        if self.span_key != "chars" and self.edus != "aligned":
            raise RSTKitError(f"span_key={self.span_key!r} keys spans of aligned EDUs (edus='aligned'); with gold "
                              "EDUs both keyings give the same scores, so it is refused")
        if self.has_quirks and self.metric not in ("rst-parseval", "parseval"):
            raise RSTKitError("nary_children, nn_relation and relation_fixer apply to the constituency metrics "
                              f"(rst-parseval, parseval), not {self.metric!r}")
        if self.has_quirks and (self.compat is not None or self.binarize not in ("right", "none")):
            raise RSTKitError("nary_children, nn_relation and relation_fixer need binarize='right' (or 'none' "
                              "where every tree is binary) and no compat mode")
        if not isinstance(self.statistics, Statistics):
            raise RSTKitError(f"statistics must be a Statistics object, not {self.statistics!r}")
        from ..labels import get_label_map

        get_label_map(self.labels)

    @classmethod
    def rst_eval(cls, **settings: Any) -> EvalConfig:
        """The reference preset: rst-eval's behaviour, bugs included (docs/evaluation.md#the-reference-procedure)."""
        settings.setdefault("unknown_labels", "keep")
        return cls(compat=RST_EVAL, **settings)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> EvalConfig:
        """The settings of the peer procedure ``name`` (:data:`rstkit.metrics.presets.PRESET_SETTINGS`),
        each of ``overrides`` replacing the preset's but for those that define it (its compatibility mode and
        quirks, :data:`rstkit.metrics.presets.DEFINING`: refused); the signature shows them and ``preset=NAME``."""
        from .presets import preset_settings

        return cls(**preset_settings(name, **overrides))

    @property
    def has_quirks(self) -> bool:
        """Whether a peer's quirk (NTT's binarization, NN relation from the right, a relation fixer) is on."""
        return (self.nary_children, self.nn_relation, self.relation_fixer) != ("all", "left", "none")

    def replace(self, **changes: Any) -> EvalConfig:
        """A copy with ``changes`` (as :func:`dataclasses.replace`, names checked); a new ``metric``
        takes its family's default binarization where this configuration has its own family's
        default (and ``binarize`` is not changed too)."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise RSTKitError(f"unknown setting(s) {', '.join(unknown)}; settings: "
                              f"{', '.join(f.name for f in fields(self))}")
        if "metric" in changes and "binarize" not in changes and self.binarize == self.family.default_binarization:
            changes["binarize"] = None
        return replace(self, **changes)

    def with_(self, **changes: Any) -> EvalConfig:
        """Deprecated name of :meth:`replace`."""
        warnings.warn("EvalConfig.with_ is deprecated: use EvalConfig.replace", DeprecationWarning, stacklevel=2)
        return self.replace(**changes)

    @property
    def family(self) -> MetricFamily:
        """The metric family this configuration scores."""
        from .registry import family

        return family(self.metric)

    # -- derived settings ------------------------------------------------------------
    @property
    def gold_binarization(self) -> Binarization:
        """Binarization mode (rstkit.transform) applied to gold trees."""
        if self.binarize == "right" and self.compat == RST_EVAL:
            return RST_EVAL
        return self.binarize

    @property
    def dep_encodings(self) -> tuple[DependencyEncoding, DependencyEncoding]:
        """The dependency encodings of gold and predictions (checked by ``__post_init__``)."""
        gold, _, pred = self.dep_encoding.partition(",")
        return cast(DependencyEncoding, gold), cast(DependencyEncoding, pred or gold)

    @property
    def attachment_rebinarization(self) -> Binarization | None:
        """educe builds attachment trees after a ``right_mixed`` pass; rstkit needs binary trees."""
        return "right_mixed" if self.compat == RST_EVAL else None

    def as_dict(self) -> dict[str, Any]:
        """Every setting by name, less those of other metric families than this one's."""
        from .registry import FAMILIES

        others = {name for f in FAMILIES.values() if f is not self.family for name in f.own_settings}
        return {key: value for key, value in asdict(self).items()
                if key not in others and not (key in QUIET_DEFAULTS and value == QUIET_DEFAULTS[key][1])}

    def shared_settings(self) -> dict[str, Any]:
        """The settings every metric family reads (those configurations scored together share)."""
        from .registry import FAMILIES

        own = {name for f in FAMILIES.values() for name in f.own_settings}
        return {key: value for key, value in asdict(self).items()
                if key not in own and key not in ("metric", "average", "binarize")}

    def signature(self, n_documents: int) -> str:
        """A line that pins every setting that changes a printed number (sacrebleu-style).

        After ``avg`` come the metric family's own items (``tuples`` of the constituency metrics,
        ``dep`` of dependencies); ``bin`` is the binarization of gold and predicted trees alike;
        ``bin.att`` (original Parseval under rst-eval compatibility only) the re-binarization
        before attachment trees are built; ``ci``, ``boot``, ``trials`` and ``seed`` appear when
        statistics are printed.
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
            *self._quiet_items("nary_children", "nn_relation", "relation_fixer"),
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
        does not pin ``unknown_labels``; it comes back as the constructors' default
        (``keep`` under rst-eval compatibility, else ``error``). A signature without ``edus``
        (printed before that setting existed) reads as ``edus=gold``, the only mode then.
        """
        items = parse_signature(text)
        items.setdefault("edus", "gold")
        unknown_keys = [key for key in items if key not in SIGNATURE_KEYS + SEGMENTATION_SIGNATURE_KEYS]
        if unknown_keys:
            raise RSTKitError(f"signature has unknown key(s) {', '.join(unknown_keys)}: {text}")
        missing = [key for key in ("metric", "avg", "labels", "bin", "compat", "missing", "1edu", "lenient", "docs")
                   if key not in items]
        if missing:
            raise RSTKitError(f"signature lacks {missing[0]}=: {text}")
        labels, _, unknown = items["labels"].partition("+unknown:")
        compat = None if items["compat"] == "none" else items["compat"]
        from .registry import FAMILIES

        own = {key: field for f in FAMILIES.values() for key, field in f.signature_settings.items()}
        n_documents = _number(items, "docs", int, "an integer")
        if n_documents < 0:
            raise RSTKitError(f"signature item docs={items['docs']} is not a number of documents (>= 0): {text}")
        numbers = {name: _number(items, key, int, "an integer") for name, key in _STATISTICS_KEYS.items()
                   if key in items and name != "confidence"}
        try:
            statistics = Statistics(confidence=_number(items, "ci", float, "a number") if "ci" in items else None,
                                    **numbers)
            settings: dict[str, Any] = {  # strings from the text: __post_init__ checks each choice
                "metric": items["metric"], "average": items["avg"], "labels": labels,
                "unknown_labels": unknown or ("keep" if compat else "error"),
                "binarize": "right" if items["bin"] == RST_EVAL else items["bin"], "compat": compat,
                "missing": items["missing"], "edus": items["edus"], "lenient": _flag(items, "lenient", "yes", "no"),
                "exclude_single_edu": _flag(items, "1edu", "excluded", "included"), "statistics": statistics,
                **{field: items[key] for key, field in own.items() if key in items},
                **{name: items[key] for name, (key, _) in QUIET_DEFAULTS.items() if key in items}}
            config = cls(**settings)
        except RSTKitError as exc:
            raise RSTKitError(f"signature{_item_named(items, exc.message, own)}: {exc.message}: {text}") from None
        again = parse_signature(config.signature(n_documents))
        for key in dict.fromkeys([*items, *again]):
            if key != "version" and items.get(key) != again.get(key):
                raise RSTKitError(f"signature is inconsistent: {key}={items.get(key, '(absent)')} where these "
                                  f"settings give {key}={again.get(key, '(absent)')}: {text}")
        return config


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
