"""The metric families by name: one line per family (:mod:`rstkit.metrics.family`)."""
from __future__ import annotations

from ..errors import RSTKitError
from .dependency import DEPENDENCY
from .family import MetricFamily
from .parseval import PARSEVAL
from .rst_parseval import RST_PARSEVAL

FAMILIES: dict[str, MetricFamily] = {family.name: family for family in (
    RST_PARSEVAL,
    PARSEVAL,
    DEPENDENCY,
)}

#: the ``metric`` settings, in the order the command line lists them
METRICS: tuple[str, ...] = tuple(FAMILIES)


def family(name: str) -> MetricFamily:
    """The family of metric ``name``."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise RSTKitError(f"metric must be one of {', '.join(METRICS)}, not {name!r}") from None
