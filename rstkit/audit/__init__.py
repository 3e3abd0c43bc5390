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
:func:`load_paper` and recomputed by :func:`recompute_row` (:func:`audit_paper` does both
for one parser's row and audits it).

Modules: :mod:`.published` (published numbers), :mod:`.ranking` (variants, scoring,
ranking), :mod:`.papers` (papers' tables), :mod:`.render` (text, Markdown, JSON)::

    from rstkit.audit import audit_published, parse_published, render_audit
    result = audit_published(gold, pred, parse_published("S=85.0 N=71.6 F=61.9"))
    print(render_audit(result, "text"))
"""
from __future__ import annotations

from .papers import (
    Paper,
    PaperAudit,
    PaperParser,
    PaperRow,
    PaperTable,
    Recomputed,
    audit_paper,
    load_paper,
    paper_keys,
    recompute_row,
)
from .published import LABEL_COLUMN, Published, parse_published
from .ranking import (
    DISTANCE,
    GOLD_BINARIZATIONS,
    Audit,
    Match,
    NotApplicable,
    Scored,
    Variant,
    audit_published,
    compare,
    rank,
    score_variants,
    variants,
)
from .render import AUDIT_FORMATS, render_audit, render_paper

__all__ = [
    "AUDIT_FORMATS",
    "DISTANCE",
    "GOLD_BINARIZATIONS",
    "LABEL_COLUMN",
    "Audit",
    "Match",
    "NotApplicable",
    "Paper",
    "PaperAudit",
    "PaperParser",
    "PaperRow",
    "PaperTable",
    "Published",
    "Recomputed",
    "Scored",
    "Variant",
    "audit_paper",
    "audit_published",
    "compare",
    "load_paper",
    "paper_keys",
    "parse_published",
    "rank",
    "recompute_row",
    "render_audit",
    "render_paper",
    "score_variants",
    "variants",
]
