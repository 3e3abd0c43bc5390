"""Every setting that changes a score, as one frozen object, and the signature made from it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from .. import __version__
from ..errors import RSTKitError

METRICS = ("rst-parseval", "parseval")
AVERAGES = ("micro", "macro", "dplp")
BINARIZATIONS = ("right", "right_mixed", "none")
COMPAT_MODES = ("rst-eval",)
MISSING_POLICIES = ("error", "skip", "zero")


@dataclass(frozen=True)
class EvalConfig:
    """Settings of one evaluation.

    metric
        ``rst-parseval``: Marcu's encoding, every node but the root, EDU leaves included
        (RST-Parseval). ``parseval``: labelled attachment decisions, root included, leaves
        excluded (original Parseval, Morey et al. 2017).
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
        included) or ``none``.
    compat
        ``rst-eval`` reproduces the reference implementation (educe / rst-eval): its
        right binarization with bug B1, ``right_mixed`` re-binarization for attachment
        trees, pass-through of unknown labels.
    missing
        predicted documents that are absent: ``error``, ``skip`` (score the
        intersection) or ``zero`` (empty prediction).
    lenient
        repair inconsistent extents when reading and score documents whose gold and
        predicted EDU counts differ (as the reference does), with warnings.
    exclude_single_edu
        drop 1-EDU documents (0 tuples) from the averages; by default they count, as in
        the reference (F1 = 0 in macro averages).
    """

    metric: str = "parseval"
    average: str = "micro"
    labels: str = "raw"
    unknown_labels: str = "error"
    binarize: str = "right"
    compat: str | None = None
    missing: str = "error"
    lenient: bool = False
    exclude_single_edu: bool = False

    def __post_init__(self) -> None:
        for name, allowed in (("metric", METRICS), ("average", AVERAGES), ("binarize", BINARIZATIONS),
                              ("missing", MISSING_POLICIES), ("unknown_labels", ("error", "keep"))):
            if getattr(self, name) not in allowed:
                raise RSTKitError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if self.compat is not None and self.compat not in COMPAT_MODES:
            raise RSTKitError(f"compat must be one of {', '.join(COMPAT_MODES)}, not {self.compat!r}")
        from ..labels import get_label_map

        get_label_map(self.labels)

    @classmethod
    def rst_eval(cls, **settings) -> EvalConfig:
        """The reference preset: rst-eval's behaviour, bugs included (evaluation.md section 8)."""
        settings.setdefault("unknown_labels", "keep")
        return cls(compat="rst-eval", **settings)

    def with_(self, **changes) -> EvalConfig:
        return replace(self, **changes)

    # -- derived settings ------------------------------------------------------------
    @property
    def gold_binarization(self) -> str:
        """Binarization mode (rstkit.transform) applied to gold trees."""
        if self.binarize == "right" and self.compat == "rst-eval":
            return "rst-eval"
        return self.binarize

    @property
    def pred_binarization(self) -> str:
        return self.gold_binarization

    @property
    def attachment_rebinarization(self) -> str | None:
        """educe builds attachment trees after a ``right_mixed`` pass; rstkit needs binary trees."""
        return "right_mixed" if self.compat == "rst-eval" else None

    @property
    def tuples(self) -> str:
        return "nodes-root+leaves" if self.metric == "rst-parseval" else "attachments+root-leaves"

    def as_dict(self) -> dict:
        return asdict(self)

    def signature(self, n_documents: int) -> str:
        """A string that pins every setting that changes the score (sacrebleu-style)."""
        parts = [
            ("metric", self.metric),
            ("avg", self.average),
            ("tuples", self.tuples),
            ("labels", self.labels + ("" if self.labels == "raw" else f"+unknown:{self.unknown_labels}")),
            ("bin.gold", self.gold_binarization),
            ("bin.pred", self.pred_binarization),
            ("compat", self.compat or "none"),
            ("missing", self.missing),
            ("1edu", "excluded" if self.exclude_single_edu else "included"),
            ("lenient", "yes" if self.lenient else "no"),
            ("docs", str(n_documents)),
            ("version", __version__),
        ]
        return "rstkit:" + "|".join(f"{k}={v}" for k, v in parts)
