"""Replication audits: which evaluation procedure produced a published score?

An audit scores one prediction set under every evaluation variant rstkit knows (metric
family x averaging x label map x gold binarization, plus the exclusion of one-EDU
documents where the gold has any) and ranks the variants by their distance to the
published numbers:

* the distance of a variant is the largest absolute difference, over the published
  measures, between its score and the published one; ties are broken by the mean absolute
  difference, then by the order of :func:`variants`;
* a published number is rounded, so a variant whose every score is within half a unit of
  the published last digit (0.05 for ``85.0``) is an **exact** match, and all exact
  matches share rank 1; several variants match exactly when they give the same scores on
  the data (e.g. macro and DPLP averaging whenever gold and prediction are binary over the
  same EDUs), or scores that round alike;
* a published ``R/F`` (a label column that papers do not say is Marcu's R or F; DPLP's
  "R" is Marcu's F) is compared with whichever of R and F is nearer.

A variant that cannot be computed on the data (e.g. the reference binarization rejects a
node pattern, a label map does not know a label) is kept as *not applicable*, with the
reason. Published tables of papers (``rstkit/data/published/<key>.json``, the single
source of truth; ``eval/`` holds the human-facing copies) are loaded by
:func:`load_paper` and recomputed by :func:`recompute_row`.
"""
from __future__ import annotations

import json
import math
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import product

import numpy as np

from .errors import RSTKitError, RSTKitWarning
from .metrics import EvalConfig, evaluate
from .metrics.average import aggregate
from .metrics.config import AVERAGES, METRICS
from .tree import RSTTree

MEASURES = ("S", "N", "R", "F")
#: a published label column that may be Marcu's R or F
LABEL_COLUMN = "R/F"

#: gold binarizations an audit tries, with what each reproduces (evaluation.md sections 4, 8, 12)
GOLD_BINARIZATIONS = {
    "right": "right-heavy, fully recursive (rstkit's default)",
    "rst-eval": "educe/rst-eval --binarize_true right: right-heavy with bug B1 (nodes under S N S left n-ary)",
    "right_mixed": "educe's default branching (S N S -> ((S N) S)), used by educe before June 2017",
    "none": "gold left n-ary (showdown.py's default); attachment trees re-binarized right_mixed by educe",
}

DISTANCE = ("max |computed - published| over the published measures, ties broken by the mean; "
            "exact when every difference is within half a unit of the published last digit")


# -- variants -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One evaluation procedure; :meth:`config` turns it into an :class:`EvalConfig`."""

    metric: str
    average: str
    labels: str
    binarization: str
    exclude_single_edu: bool = False

    @property
    def name(self) -> str:
        name = f"{self.metric}/{self.average}/{self.labels}/{self.binarization}"
        return name + ("/1edu-excluded" if self.exclude_single_edu else "")

    def config(self, missing: str = "error", lenient: bool = False, unknown_labels: str | None = None) -> EvalConfig:
        """``right`` is rstkit's own mode; the educe binarizations use the rst-eval preset (which
        lets unknown labels pass through unless ``unknown_labels`` says otherwise)."""
        settings = dict(metric=self.metric, average=self.average, labels=self.labels, missing=missing,
                        lenient=lenient, exclude_single_edu=self.exclude_single_edu)
        if unknown_labels is not None:
            settings["unknown_labels"] = unknown_labels
        if self.binarization == "right":
            return EvalConfig(binarize="right", **settings)
        binarize = "right" if self.binarization == "rst-eval" else self.binarization
        return EvalConfig.rst_eval(binarize=binarize, **settings)

    def as_dict(self) -> dict:
        return {"variant": self.name, "metric": self.metric, "average": self.average, "labels": self.labels,
                "binarization": self.binarization, "exclude_single_edu": self.exclude_single_edu}


def variants(label_maps: Sequence[str] = ("rstdt18",), single_edu_axis: bool = False) -> list[Variant]:
    """Every variant: metric x average x labels (``label_maps`` then ``raw``) x gold binarization,
    doubled by the exclusion of one-EDU documents when ``single_edu_axis``."""
    labels = list(dict.fromkeys([*label_maps, "raw"]))
    exclusions = (False, True) if single_edu_axis else (False,)
    return [Variant(m, a, lab, b, x) for m, a, lab, b, x in
            product(METRICS, AVERAGES, labels, GOLD_BINARIZATIONS, exclusions)]


# -- published numbers --------------------------------------------------------------------------
_KEYS = {"S": "S", "N": "N", "R": "R", "F": "F", "R/F": LABEL_COLUMN, "RF": LABEL_COLUMN, "R|F": LABEL_COLUMN}
_NOT_REPORTED = {"-", "–", "—", "n/a", "na"}


@dataclass(frozen=True)
class Published:
    """Published scores (percent) per measure, with the rounding tolerance of each."""

    values: dict[str, float]
    tolerances: dict[str, float]

    def __post_init__(self) -> None:
        """Scores are percentages: each must be a number from 0 to 100."""
        for measure, value in self.values.items():
            problem = _not_a_percentage(value)
            if problem:
                raise RSTKitError(f"published {measure}={value!r} {problem}: scores are percentages, from 0 to 100")
        for measure, tolerance in self.tolerances.items():
            if not tolerance > 0.0 or not math.isfinite(tolerance):
                raise RSTKitError(f"published {measure}: rounding tolerance {tolerance!r} must be positive")
        if set(self.tolerances) != set(self.values):
            raise RSTKitError("published scores: every measure needs a rounding tolerance, and no other")

    def __str__(self) -> str:
        return " ".join(f"{m}={self.text(m)}" for m in self.values)

    def text(self, measure: str) -> str:
        """The published number as printed (with its number of decimals)."""
        decimals = max(0, round(-math.log10(2 * self.tolerances[measure])))
        return f"{self.values[measure]:.{decimals}f}"

    @classmethod
    def from_values(cls, values: Mapping[str, float | None], decimals: int) -> Published:
        kept = {m: v if _not_a_percentage(v) else float(v) for m, v in values.items() if v is not None}
        if not kept:
            raise RSTKitError("no published score to audit")
        return cls(kept, {m: 0.5 * 10.0 ** -decimals for m in kept})


def _not_a_percentage(value: object) -> str | None:
    """What is wrong with ``value`` as a score in percent, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return "is not a number"
    if value < 0:
        return "is negative"
    return "is above 100" if value > 100 else None


def parse_published(text: str) -> Published:
    """Parse ``"S=85.0 N=71.6 F=61.9"`` (commas or semicolons also separate; ``R/F`` is a label
    column that may be R or F; ``-`` marks a score the paper does not give). Every score is a
    percentage from 0 to 100."""
    values: dict[str, float] = {}
    tolerances: dict[str, float] = {}
    for item in re.split(r"[\s,;]+", text.strip()):
        if not item:
            continue
        match = re.fullmatch(r"([A-Za-z/|]+)[=:](.+)", item)
        if not match or match.group(1).upper() not in _KEYS:
            raise RSTKitError(f"published scores: cannot read {item!r}; write MEASURE=VALUE with MEASURE one of "
                              "S, N, R, F, R/F (e.g. \"S=85.0 N=71.6 F=61.9\")")
        key, raw = _KEYS[match.group(1).upper()], match.group(2).rstrip("%")
        if key in values or (key == LABEL_COLUMN and {"R", "F"} & set(values)) or (
                key in ("R", "F") and LABEL_COLUMN in values):
            raise RSTKitError(f"published scores: {key} is given twice (R/F stands for R or F)")
        if raw.lower() in _NOT_REPORTED:
            continue
        if not re.fullmatch(r"[-+]?\d+(\.\d+)?", raw):
            raise RSTKitError(f"published scores: {match.group(1)} has no number: {match.group(2)!r} "
                              "(write a percentage such as 61.9)")
        decimals = len(raw.split(".")[1]) if "." in raw else 0
        values[key] = float(raw)
        tolerances[key] = 0.5 * 10.0 ** -decimals
    if not values:
        raise RSTKitError("published scores: no score given")
    return Published(values, tolerances)


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


def score_variants(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree], candidates: Sequence[Variant],
                   missing: str = "error", lenient: bool = False, unknown_labels: str | None = None,
                   notes: list[str] | None = None) -> tuple[list[Scored], list[NotApplicable]]:
    """Score every candidate variant.

    Variants that differ only in averaging or in the one-EDU exclusion share one
    evaluation (those settings only change how per-document counts are averaged).
    Warnings of the evaluations are appended to ``notes``.
    """
    groups: dict[tuple[str, str, str], list[Variant]] = {}
    for variant in candidates:
        groups.setdefault((variant.metric, variant.labels, variant.binarization), []).append(variant)
    scored: dict[Variant, Scored] = {}
    failed: list[NotApplicable] = []
    for group in groups.values():
        configs = [v.config(missing, lenient, unknown_labels) for v in group]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RSTKitWarning)
                result = evaluate(gold, pred, configs[0].with_(average="micro", exclude_single_edu=False))
        except RSTKitError as exc:
            failed.extend(NotApplicable(v, str(exc)) for v in group)
            continue
        if notes is not None:
            notes.extend(w for w in result.warnings if w not in notes)
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
    column = None
    if LABEL_COLUMN in published.values:
        target = published.values[LABEL_COLUMN]
        column = min(("R", "F"), key=lambda m: abs(scores[m] - target))  # R on ties
    differences = {m: scores[column if m == LABEL_COLUMN else m] - v for m, v in published.values.items()}
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

    def as_dict(self) -> dict:
        return {
            "published": self.published.values,
            "tolerance": self.published.tolerances,
            "distance": DISTANCE,
            "n_documents": self.n_documents,
            "n_variants": len(self.matches) + len(self.not_applicable),
            "exact_matches": [m.scored.variant.name for m in self.exact],
            "matches": [m.as_dict() for m in self.matches],
            "not_applicable": [{**n.variant.as_dict(), "reason": n.reason} for n in self.not_applicable],
            "warnings": self.warnings,
        }


def audit(gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree], published: Published,
          label_maps: Sequence[str] = ("rstdt18",), missing: str = "error", lenient: bool = False,
          unknown_labels: str | None = None, candidates: Sequence[Variant] | None = None) -> Audit:
    """Rank every variant (or ``candidates``) by its distance to ``published``.

    Raises RSTKitError when no variant can be computed at all (the reasons are listed).
    """
    if candidates is None:
        single_edu = any(t.n_edus == 1 for t in gold.values())
        candidates = variants(label_maps, single_edu_axis=single_edu)
    notes: list[str] = []
    scored, failed = score_variants(gold, pred, candidates, missing, lenient, unknown_labels, notes)
    if not scored:
        reasons = list(dict.fromkeys(f.reason for f in failed))
        raise RSTKitError("no evaluation variant could be computed: " + "; ".join(reasons))
    return Audit(published, rank(published, scored), failed, scored[0].n_documents, notes)


# -- published tables of papers ------------------------------------------------------------------
@dataclass(frozen=True)
class PaperParser:
    key: str
    name: str
    group: int | None
    format: str
    documents: int | None = None
    note: str = ""


@dataclass(frozen=True)
class PaperRow:
    parser: str
    label: str
    mark: str
    values: dict[str, float | None]


@dataclass(frozen=True)
class PaperTable:
    number: int
    title: str
    columns: tuple[str, ...]
    settings: dict[str, str]
    rows: tuple[PaperRow, ...]
    matches_table1: dict[str, tuple[str, ...]]

    def row(self, parser: str) -> PaperRow:
        for row in self.rows:
            if row.parser == parser:
                return row
        raise RSTKitError(f"Table {self.number} has no row for parser {parser!r}; "
                          f"it has {', '.join(r.parser for r in self.rows)}")


@dataclass(frozen=True)
class Paper:
    """A paper's published tables, as stored in ``rstkit/data/published/<key>.json``."""

    key: str
    data: dict

    @property
    def decimals(self) -> int:
        return self.data["decimals"]

    @property
    def parsers(self) -> list[PaperParser]:
        return [PaperParser(**p) for p in self.data["parsers"]]

    @property
    def tables(self) -> list[PaperTable]:
        return [PaperTable(t["number"], t["title"], tuple(t["columns"]), t["settings"],
                           tuple(PaperRow(r["parser"], r["label"], r["mark"], dict(zip(t["columns"], r["values"])))
                                 for r in t["rows"]),
                           {p: tuple(ms) for p, ms in t.get("matches_table1", {}).items()})
                for t in self.data["tables"]]

    def table(self, number: int) -> PaperTable:
        for table in self.tables:
            if table.number == number:
                return table
        raise RSTKitError(f"paper {self.key} has no Table {number}; "
                          f"it has {', '.join(str(t.number) for t in self.tables)}")

    def parser(self, name: str) -> PaperParser:
        """A parser by key or name (case-insensitive, marks ignored)."""
        wanted = re.sub(r"[\s*]+", " ", name).strip().lower()
        labels = {(row.parser, row.label.lower()) for table in self.tables for row in table.rows}
        for parser in self.parsers:
            if wanted in (parser.key, parser.name.lower()) or (parser.key, wanted) in labels:
                return parser
        choices = ", ".join(p.key for p in self.parsers)
        raise RSTKitError(f"paper {self.key} has no parser {name!r}; choose from {choices}")

    def average(self, table: PaperTable, parser: str) -> str:
        """The averaging a row of ``table`` was computed with: the table's own, else (Table 1)
        that of the replicated table marking the row as matching it, else the group's."""
        if "average" in table.settings:
            return table.settings["average"]
        for other in self.tables:
            if parser in other.matches_table1 and "average" in other.settings:
                return other.settings["average"]
        group = self.parser(parser).group
        if group is None:
            raise RSTKitError(f"paper {self.key}: no averaging is known for {parser} in Table {table.number}")
        return self.data["groups"][str(group)]["average"]

    def config(self, table: PaperTable, parser: str, missing: str = "error", lenient: bool = False) -> EvalConfig:
        settings = {**table.settings, "average": self.average(table, parser)}
        if settings.pop("compat", None) == "rst-eval":
            return EvalConfig.rst_eval(missing=missing, lenient=lenient, **settings)
        return EvalConfig(missing=missing, lenient=lenient, **settings)


def paper_keys() -> list[str]:
    folder = resources.files("rstkit.data").joinpath("published")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def _paper_data(key: str) -> str:
    return resources.files("rstkit.data").joinpath("published", f"{key}.json").read_text(encoding="utf-8")


def load_paper(key: str) -> Paper:
    if key not in paper_keys():
        raise RSTKitError(f"no published tables for paper {key!r}; known: {', '.join(paper_keys())}")
    return Paper(key, json.loads(_paper_data(key)))


@dataclass
class Recomputed:
    """One table's row of one parser, recomputed on the user's data."""

    table: PaperTable
    parser: str
    config: EvalConfig
    n_documents: int
    scores: dict[str, float]
    label_column: str | None = None

    def value(self, column: str) -> float:
        return self.scores[self.label_column if column == LABEL_COLUMN else column]

    def difference(self, column: str) -> float | None:
        """Recomputed minus published (None where the paper gives no number)."""
        published = self.table.row(self.parser).values[column]
        return None if published is None else self.value(column) - published

    def as_dict(self) -> dict:
        out = {"table": self.table.number, "scores": self.scores,
               "published": self.table.row(self.parser).values,
               "differences": {c: self.difference(c) for c in self.table.columns},
               "signature": self.config.signature(self.n_documents), "settings": self.config.as_dict()}
        if self.label_column:
            out["label_column"] = self.label_column
        return out


def recompute_row(paper: Paper, parser: str, gold: Mapping[str, RSTTree], pred: Mapping[str, RSTTree],
                  missing: str = "error", lenient: bool = False, notes: list[str] | None = None) -> list[Recomputed]:
    """Every table's row of ``parser`` recomputed under that table's settings.

    A ``R/F`` column is read as the measure the paper marks as matching (Table 1 marks in
    the replicated tables), else as whichever of R and F is nearer the published value.
    """
    out = []
    for table in paper.tables:
        config = paper.config(table, parser, missing, lenient)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RSTKitWarning)
            result = evaluate(gold, pred, config)
        if notes is not None:
            notes.extend(w for w in result.warnings if w not in notes)
        column = None
        if LABEL_COLUMN in table.columns:
            marked = [m for t in paper.tables for m in t.matches_table1.get(parser, ()) if m in ("R", "F")]
            published = table.row(parser).values[LABEL_COLUMN]
            if marked or published is None:
                column = marked[0] if marked else "F"
            else:
                column = min(("R", "F"), key=lambda m: abs(result.scores[m] - published))
        out.append(Recomputed(table, parser, config, len(result.doc_ids), dict(result.scores), column))
    return out
