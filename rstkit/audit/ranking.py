"""Scoring a prediction set under every evaluation variant and ranking the variants by their
distance to published numbers (see :mod:`rstkit.audit`)."""
from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, cast

import numpy as np

from ..errors import RSTKitError, RSTKitWarning
from ..labels import label_maps_for
from ..metrics import EvalConfig, score_documents
from ..metrics.average import aggregate
from ..metrics.presets import PRESET_SETTINGS
from ..settings import (
    AVERAGES,
    RST_EVAL,
    SPAN_KEYS,
    Average,
    Binarization,
    EduMode,
    EvalBinarization,
    Metric,
    Missing,
    SpanKey,
    UnknownLabels,
)
from ..tree import RSTTree
from .published import LABEL_COLUMN, Published

#: gold binarizations an audit tries, with what each reproduces (docs/evaluation.md#binarization)
GOLD_BINARIZATIONS: dict[Binarization, str] = {
    "right": "right-heavy, fully recursive (rstkit's default)",
    RST_EVAL: "educe/rst-eval --binarize_true right: right-heavy with bug B1 (nodes under S N S left n-ary)",
    "right_mixed": "educe's default branching (S N S -> ((S N) S)), used by educe before June 2017",
    "none": "gold left n-ary (showdown.py's default); attachment trees re-binarized right_mixed by educe",
}

#: the constituency metrics, which an audit of S, N, R, F scores ranks
CONSTITUENCY_METRICS: tuple[Metric, ...] = ("rst-parseval", "parseval")

#: dependency encodings an audit tries (gold,pred), with what each reproduces
#: (docs/metrics/dependency.md#the-references-two-pipelines)
DEPENDENCY_ENCODINGS: dict[str, str] = {
    "chain": "both sides chain (eval_disdep.py's pipeline: dis2disdep.py and eval_disdep.py's default)",
    "tree": "both sides tree (n-ary nodes as stars)",
    "tree,chain": "gold tree, predictions chain (showdown.py's default: Morey et al. 2018's tables)",
}

DISTANCE = ("max |computed - published| over the published measures, ties broken by the mean; "
            "exact when every difference is within half a unit of the published last digit")


# -- variants -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One evaluation procedure; :meth:`config` turns it into an :class:`EvalConfig`.

    Dependency variants also name their encoding (``dep_encoding``) and whether the reference's
    procedure is reproduced (``compat``: bug B1 inside ``chain``); their ``binarization`` is the one
    before conversion (``none``, or ``right``: showdown.py's ``--binarize_true right``).

    With predicted EDUs (``edus="aligned"``) a variant also names its span keying (``span_key``);
    a peer's procedure by name (``preset``, :mod:`rstkit.metrics.presets`) takes its settings from
    the preset, ``metric`` and ``average`` aside."""

    metric: Metric
    average: Average
    labels: str
    binarization: Binarization
    exclude_single_edu: bool = False
    dep_encoding: str | None = None
    compat: bool = False
    edus: EduMode = "gold"
    span_key: SpanKey = "chars"
    preset: str | None = None

    @property
    def name(self) -> str:
        name = f"{self.metric}/{self.average}/{self.labels}/{self.binarization}"
        if self.preset is not None:
            name = f"preset:{self.preset}/{self.metric}/{self.average}"
        if self.dep_encoding is not None:
            name += f"/{self.dep_encoding}" + ("/rst-eval" if self.compat else "")
        if self.edus == "aligned":
            name += f"/aligned:{self.span_key}"
        return name + ("/1edu-excluded" if self.exclude_single_edu else "")

    @property
    def procedure(self) -> str:
        """What the audit's table shows of the variant beyond metric, average, labels, binarization:
        its preset and span keying (empty for gold-EDU variants of no preset)."""
        keying = self.span_key if self.edus == "aligned" else ""
        return " ".join(part for part in (f"preset {self.preset}" if self.preset else "", keying) if part)

    def config(self, *, missing: Missing = "error", lenient: bool = False,
               unknown_labels: UnknownLabels | None = None) -> EvalConfig:
        """``right`` is rstkit's own mode; the educe binarizations use rst-eval compatibility (which
        lets unknown labels pass through unless ``unknown_labels`` says otherwise)."""
        settings: dict[str, Any] = {"metric": self.metric, "average": self.average, "labels": self.labels,
                                    "missing": missing, "lenient": lenient,
                                    "exclude_single_edu": self.exclude_single_edu}
        if unknown_labels is not None:
            settings["unknown_labels"] = unknown_labels
        if self.edus == "aligned":
            settings.update(edus="aligned", span_key=self.span_key)
        if self.preset is not None:
            del settings["labels"]
            return EvalConfig.preset(self.preset, **settings)
        if self.dep_encoding is not None:
            return EvalConfig(binarize=cast(EvalBinarization, self.binarization), dep_encoding=self.dep_encoding,
                              compat=RST_EVAL if self.compat else None, **settings)
        if self.binarization == "right":
            return EvalConfig(binarize="right", **settings)
        binarize = "right" if self.binarization == RST_EVAL else self.binarization
        return EvalConfig(binarize=binarize, compat=RST_EVAL, **settings)

    def as_dict(self) -> dict:
        out = {"variant": self.name, "metric": self.metric, "average": self.average, "labels": self.labels,
               "binarization": self.binarization, "exclude_single_edu": self.exclude_single_edu}
        if self.dep_encoding is not None:
            out.update(dep_encoding=self.dep_encoding, compat=RST_EVAL if self.compat else None)
        if self.edus == "aligned":
            out.update(edus=self.edus, span_key=self.span_key)
        if self.preset is not None:
            out["preset"] = self.preset
        return out


def variants(label_maps: Sequence[str] = ("rstdt18",), *, single_edu_axis: bool = False,
             dependency: bool = False, edus: EduMode = "gold", span_keys: Sequence[SpanKey] = SPAN_KEYS
             ) -> list[Variant]:
    """Every variant of the constituency metrics: metric x average x labels (``label_maps`` then
    ``raw``) x gold binarization; with ``dependency``, every dependency variant instead: average x
    labels x encoding (:data:`DEPENDENCY_ENCODINGS`) x the reference's procedure or not (bug B1
    inside ``chain``), trees converted as they are, plus ``chain`` after a right binarization
    (showdown.py's ``--binarize_true right``). Doubled by the exclusion of one-EDU documents
    when ``single_edu_axis``. With ``edus="aligned"`` (predictions with their own EDUs) every
    constituency variant is scored under each of ``span_keys`` (by default both: chars and DMRST's
    first-edu-end)."""
    labels = list(dict.fromkeys([*label_maps, "raw"]))
    exclusions = (False, True) if single_edu_axis else (False,)
    if not dependency:
        if edus == "aligned":
            return [Variant(m, a, lab, b, x, edus=edus, span_key=k) for m, a, lab, b, x, k in
                    product(CONSTITUENCY_METRICS, AVERAGES, labels, GOLD_BINARIZATIONS, exclusions, span_keys)]
        return [Variant(m, a, lab, b, x) for m, a, lab, b, x in
                product(CONSTITUENCY_METRICS, AVERAGES, labels, GOLD_BINARIZATIONS, exclusions)]
    procedures: list[tuple[Binarization, str]] = [("none", encoding) for encoding in DEPENDENCY_ENCODINGS]
    procedures.append(("right", "chain"))
    return [Variant("dependency", a, lab, b, x, encoding, compat) for a, lab, (b, encoding), compat, x in
            product(AVERAGES, labels, procedures, (False, True), exclusions)]


def preset_variants(edus: EduMode = "gold") -> list[Variant]:
    """One variant per peer procedure (:mod:`rstkit.metrics.presets`) under its own metric and
    average, and DMRST's under original Parseval too (its ``use_org_Parseval=True``)."""
    out: list[Variant] = []
    for name, settings in PRESET_SETTINGS.items():
        metrics = [settings["metric"], *(["parseval"] if name == "dmrst" else [])]
        for metric in metrics:
            key: SpanKey = settings.get("span_key", "chars") if edus == "aligned" else "chars"
            out.append(Variant(metric, settings["average"], settings.get("labels", "raw"),
                               settings.get("binarize", RST_EVAL if name == RST_EVAL else "right"),
                               edus=edus, span_key=key, preset=name))
    return out


def data_label_maps(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree]) -> list[str]:
    """The label maps an audit tries besides ``raw`` where none are named: those that fit the relation
    labels of gold and predictions (:func:`rstkit.labels.label_maps_for`)."""
    return label_maps_for({node.relation for tree in (*gold.values(), *pred.values())
                           for node in tree.root.nodes() if node.relation is not None})


# -- scoring the variants -----------------------------------------------------------------------
@dataclass
class Scored:
    """The scores of one variant on the data."""

    variant: Variant
    config: EvalConfig
    n_documents: int
    scores: dict[str, float]


@dataclass(frozen=True)
class NotApplicable:
    variant: Variant
    reason: str


def score_variants(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree], candidates: Sequence[Variant], *,
                   missing: Missing = "error", lenient: bool = False, unknown_labels: UnknownLabels | None = None,
                   notes: list[str] | None = None) -> tuple[list[Scored], list[NotApplicable]]:
    """Score every candidate variant.

    Variants that differ only in averaging or in the one-EDU exclusion share one
    evaluation (those settings only change how per-document counts are averaged).
    Warnings of the evaluations are appended to ``notes``, less those on label sets that do not meet
    (:attr:`~rstkit.metrics.EvalResult.label_warnings`): the label map is one of the axes an audit varies.
    """
    groups: dict[tuple, list[Variant]] = {}
    for variant in candidates:
        key = (variant.metric, variant.labels, variant.binarization, variant.dep_encoding, variant.compat,
               variant.edus, variant.span_key, variant.preset)
        groups.setdefault(key, []).append(variant)
    scored: dict[Variant, Scored] = {}
    failed: list[NotApplicable] = []
    for group in groups.values():
        configs = [v.config(missing=missing, lenient=lenient, unknown_labels=unknown_labels) for v in group]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RSTKitWarning)
                result = score_documents(gold, pred, configs[0].replace(average="micro", exclude_single_edu=False))
        except RSTKitError as exc:
            failed.extend(NotApplicable(v, str(exc)) for v in group)
            continue
        if notes is not None:
            notes.extend(w for w in result.warnings if w not in notes and w not in result.label_warnings)
        counts = result.systems[0].counts
        for variant, config in zip(group, configs):
            included = result.n_edus > 1 if variant.exclude_single_edu else np.ones(len(result.doc_ids), bool)
            scores = aggregate(counts.select(included), variant.average).f1
            scored[variant] = Scored(variant, config, len(result.doc_ids), dict(scores))
    order = {v: i for i, v in enumerate(candidates)}
    return sorted(scored.values(), key=lambda s: order[s.variant]), failed


# -- ranking ------------------------------------------------------------------------------------
@dataclass
class Match:
    """A scored variant compared with the published numbers."""

    scored: Scored
    differences: dict[str, float]
    distance: float
    mean_difference: float
    exact: bool
    label_column: str | None = None
    rank: int = 0

    def as_dict(self) -> dict:
        out = {"rank": self.rank, **self.scored.variant.as_dict()}
        if self.label_column:
            out["label_column"] = self.label_column
        out.update(scores=self.scored.scores, differences=self.differences, distance=self.distance,
                   mean_difference=self.mean_difference, exact=self.exact,
                   signature=self.scored.config.signature(self.scored.n_documents),
                   settings=self.scored.config.as_dict())
        return out


def compare(published: Published, scored: Scored) -> Match:
    """Differences of one variant's scores from the published ones."""
    scores = scored.scores
    measure = {m: m for m in published.values}  # the scored column each published value is compared with
    column = None
    if LABEL_COLUMN in published.values:
        target = published.values[LABEL_COLUMN]
        column = measure[LABEL_COLUMN] = min(("R", "F"), key=lambda m: abs(scores[m] - target))  # R on ties
    differences = {m: scores[measure[m]] - v for m, v in published.values.items()}
    absolute = [abs(d) for d in differences.values()]
    exact = all(abs(differences[m]) <= published.tolerances[m] + 1e-9 for m in differences)
    return Match(scored, differences, max(absolute), sum(absolute) / len(absolute), exact, column)


def rank(published: Published, scored: Sequence[Scored]) -> list[Match]:
    """Matches best first. Every exact match has rank 1 (rounding cannot tell them apart);
    the others share a rank when their distance and mean difference are equal."""
    matches = [compare(published, s) for s in scored]
    key = [(not m.exact, round(m.distance, 9), round(m.mean_difference, 9)) for m in matches]
    order = sorted(range(len(matches)), key=lambda i: key[i])  # stable: variant order breaks ties
    ranked, previous, current = [], None, 0
    for i in order:
        group = (True,) if matches[i].exact else key[i]
        if group != previous:
            current, previous = current + 1, group
        matches[i].rank = current
        ranked.append(matches[i])
    return ranked


@dataclass
class Audit:
    """The ranking of every computable variant, and the variants that could not be computed."""

    published: Published
    matches: list[Match]
    not_applicable: list[NotApplicable]
    n_documents: int
    warnings: list[str] = field(default_factory=list)

    @property
    def exact(self) -> list[Match]:
        return [m for m in self.matches if m.exact]

    @property
    def presets_scored(self) -> bool:
        return any(m.scored.variant.preset for m in self.matches)

    @property
    def exact_presets(self) -> list[str]:
        """The peers' procedures (as variant names) that reproduce the published numbers."""
        return [m.scored.variant.name for m in self.exact if m.scored.variant.preset]

    def as_dict(self) -> dict:
        return {
            "published": self.published.values,
            "tolerance": self.published.tolerances,
            "distance": DISTANCE,
            "n_documents": self.n_documents,
            "n_variants": len(self.matches) + len(self.not_applicable),
            "exact_matches": [m.scored.variant.name for m in self.exact],
            **({"exact_presets": self.exact_presets} if self.presets_scored else {}),
            "matches": [m.as_dict() for m in self.matches],
            "not_applicable": [{**n.variant.as_dict(), "reason": n.reason} for n in self.not_applicable],
            "warnings": self.warnings,
        }


def audit_published(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree], published: Published,
                    *, label_maps: Sequence[str] | None = None, missing: Missing = "error", lenient: bool = False,
                    unknown_labels: UnknownLabels | None = None, candidates: Sequence[Variant] | None = None,
                    edus: EduMode = "gold", span_keys: Sequence[SpanKey] = SPAN_KEYS, presets: bool = False,
                    config: EvalConfig | None = None) -> Audit:
    """Rank every variant (or ``candidates``) by its distance to ``published``.

    ``label_maps``: the label maps tried besides ``raw``; by default those of the data
    (:func:`data_label_maps`: ``gum`` for GUM's labels, ``rstdt18`` for RST-DT's). ``config`` (an
    :class:`~rstkit.EvalConfig`) gives the settings an audit does not vary at once: its label map,
    missing-document and unknown-label policies, ``lenient``, ``edus`` and (aligned) span key.

    With ``edus="aligned"`` (an end-to-end number: predictions with their own EDUs) the variants
    are scored under each of ``span_keys``; with ``presets``, the peers' procedures by name
    (:func:`preset_variants`) are ranked too, and :attr:`Audit.exact_presets` names those that
    reproduce the numbers.

    Raises RSTKitError when no variant can be computed at all (the reasons are listed).

    >>> from rstkit import parse_published, read_documents
    >>> gold, pred = read_documents("corpora/sample/gold"), read_documents("corpora/sample/pred")
    >>> result = audit_published(gold, pred, parse_published("S=68.3 N=61.7 F=57.5"))
    >>> best = result.matches[0]
    >>> best.scored.variant.metric, best.scored.variant.average, best.exact
    ('rst-parseval', 'macro', True)
    """
    if config is not None:
        label_maps, missing, lenient, edus = (config.labels,), config.missing, config.lenient, config.edus
        unknown_labels = config.unknown_labels
        span_keys = (config.span_key,) if config.edus == "aligned" else span_keys
    if candidates is None:
        single_edu = any(t.n_edus == 1 for t in gold.values())
        maps = data_label_maps(gold, pred) if label_maps is None else label_maps
        candidates = variants(maps, single_edu_axis=single_edu, dependency=published.dependency, edus=edus,
                              span_keys=span_keys)
        if presets and not published.dependency:
            candidates += preset_variants(edus)
    notes: list[str] = []
    scored, failed = score_variants(gold, pred, candidates, missing=missing, lenient=lenient,
                                    unknown_labels=unknown_labels, notes=notes)
    if not scored:
        reasons = list(dict.fromkeys(f.reason for f in failed))
        raise RSTKitError("no evaluation variant could be computed: " + "; ".join(reasons))
    return Audit(published, rank(published, scored), failed, scored[0].n_documents, notes)
