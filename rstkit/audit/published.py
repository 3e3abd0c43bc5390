"""Published scores: the numbers a paper prints, with the rounding tolerance each one carries."""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import RSTKitError
from ..settings import MEASURES

#: a published label column that may be Marcu's R or F
LABEL_COLUMN = "R/F"
#: measures only the dependency family has (a published number with one of them is a dependency score)
DEPENDENCY_MEASURES = ("U", "O", "O+N", "R+N", "R+O", "tag_R", "tag_N", "tag_O")
_KEYS: dict[str, str] = {**{m: m for m in MEASURES}, **{m.upper(): m for m in DEPENDENCY_MEASURES},
                         "R/F": LABEL_COLUMN, "RF": LABEL_COLUMN, "R|F": LABEL_COLUMN}
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

    @property
    def dependency(self) -> bool:
        """Whether the numbers are dependency scores (they name a measure only dependencies have)."""
        return any(m in DEPENDENCY_MEASURES for m in self.values)

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
    column that may be R or F; ``-`` marks a score the paper does not give). Dependency scores name
    their measures as ``rstkit eval --metric dependency`` does (``U``, ``O``, ``N``, ``O+N``, ``R``,
    ``R+N``, ``F``, ``R+O``, ``tag_R``...). Every score is a percentage from 0 to 100.

    >>> published = parse_published("S=68.3, N=61.7; R/F=57.5")
    >>> published.values
    {'S': 68.3, 'N': 61.7, 'R/F': 57.5}
    """
    values: dict[str, float] = {}
    tolerances: dict[str, float] = {}
    for item in re.split(r"[\s,;]+", text.strip()):
        if not item:
            continue
        match = re.fullmatch(r"([A-Za-z/|+_]+)[=:](.+)", item)
        if not match or match.group(1).upper() not in _KEYS:
            raise RSTKitError(f"published scores: cannot read {item!r}; write MEASURE=VALUE with MEASURE one of "
                              f"S, N, R, F, R/F, or of dependencies {', '.join(DEPENDENCY_MEASURES)} "
                              "(e.g. \"S=85.0 N=71.6 F=61.9\", \"U=61.2 R=46.7\")")
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
