"""The metric families by name: one line per family (:mod:`rstkit.metrics.family`)."""
from __future__ import annotations

from ..errors import RSTKitError
from .dependency import DEPENDENCY
from .family import MetricFamily
from .parseval import PARSEVAL
from .rst_parseval import RST_PARSEVAL
from .secondary_edges import SECONDARY_EDGES
from .segmentation import SEGMENTATION
from .signals import SIGNALS

FAMILIES: dict[str, MetricFamily] = {family.name: family for family in (
    RST_PARSEVAL,
    PARSEVAL,
    DEPENDENCY,
    SEGMENTATION,
    SECONDARY_EDGES,
    SIGNALS,
)}

#: the ``metric`` settings of the families that score trees, in the order the command line lists them
#: (``--metric all``; they may be scored together)
METRICS: tuple[str, ...] = tuple(name for name, f in FAMILIES.items() if not f.token_level and f.in_all)
#: every ``metric`` setting: those, the token-level families (scored alone), and the eRST families (named
#: explicitly; scored alone or with the tree families)
ALL_METRICS: tuple[str, ...] = tuple(FAMILIES)


def family(name: str) -> MetricFamily:
    """The family of metric ``name``."""
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise RSTKitError(f"metric must be one of {', '.join(FAMILIES)}, not {name!r}") from None
