"""Training settings, checked when they are made (no torch needed).

A typo in a schedule, encoder or option name, a negative epoch count or an unknown
model-selection metric fails at construction, not after an epoch of training.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import RSTKitError
from ..labels import label_map_names
from ..metrics.registry import FAMILIES, METRICS
from ..models import TrainSettings
from ..settings import AVERAGES, Average, Metric
from .encoder_names import check_encoder, needs_vocabulary, pretrained_part

SCHEDULES = ("constant", "cosine", "linear")
#: options of the parser network (:class:`.model.ParserModel`) and of each encoder
MODEL_OPTIONS = ("hidden", "span_dim", "mlp_dim", "dropout", "span_diff", "relation_given_pair", "context",
                 "unit_features", "doc_layers")
SCRATCH_OPTIONS = ("embedding_dim", "hidden", "dropout")
PRETRAINED_OPTIONS = ("dim", "dropout", "fine_tune", "window", "overlap", "layers")


#: every model-selection metric by its name
_SELECT_BY: dict[str, tuple[Metric, Average, str]] = {
    f"{metric}-{average}-{key}": (metric, average, key)
    for metric, family in FAMILIES.items() if metric in METRICS for average in AVERAGES for key in family.measures}


def parse_select_by(name: str) -> tuple[Metric, Average, str]:
    """``(metric, average, key)`` of a model-selection metric such as ``parseval-micro-F``
    or ``rst-parseval-macro-N``."""
    if name not in _SELECT_BY:
        raise RSTKitError(f"unknown model-selection metric {name!r}; use METRIC-AVERAGE-KEY with METRIC in "
                          f"{', '.join(METRICS)}, AVERAGE in {', '.join(AVERAGES)}, KEY a measure of the metric "
                          "(e.g. parseval-micro-F)")
    return _SELECT_BY[name]


def _check_keys(options: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    if not isinstance(options, dict):
        raise RSTKitError(f"{what} must be a mapping of option names to values")
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise RSTKitError(f"unknown {what} {', '.join(map(repr, unknown))}; known: {', '.join(allowed)}")


def check_encoder_options(encoder: str, options: dict[str, Any]) -> None:
    """Option names must be those of the encoder (a typo fails here)."""
    check_encoder(encoder)
    if needs_vocabulary(encoder) and pretrained_part(encoder) is not None:
        _check_keys(options, ("scratch", "pretrained"), "encoder option group")
        _check_keys(options.get("scratch", {}), SCRATCH_OPTIONS, "scratch encoder option")
        _check_keys(options.get("pretrained", {}), PRETRAINED_OPTIONS, "pretrained encoder option")
    else:
        _check_keys(options, SCRATCH_OPTIONS if needs_vocabulary(encoder) else PRETRAINED_OPTIONS, "encoder option")


@dataclass(frozen=True)
class TrainConfig(TrainSettings):
    """The parser's training settings (all written to the model's config); with those of every
    run (:class:`rstkit.models.TrainSettings`: ``epochs``, ``patience``, ``lr``, ``seed``).

    ``select_by`` names the dev metric that selects the model (``METRIC-AVERAGE-KEY``).
    The learning rate ``lr`` of the parser follows ``schedule`` after a linear ``warmup``
    (a fraction of all optimizer steps); a fine-tuned transformer's layers get
    ``encoder_lr`` times ``layer_decay`` per layer below the top. Gradients of
    ``accumulate`` batches make one optimizer step. ``cache_dir`` keeps frozen transformer
    states on disk (None: ``$RSTKIT_CACHE/features``; ``""``: no cache). ``stop_after`` ends
    training after that epoch while the schedule still spans ``epochs`` (None: ``epochs``).
    """

    label_map: str = "gum"
    encoder: str = "scratch"
    encoder_options: dict[str, Any] = field(default_factory=dict)
    model_options: dict[str, Any] = field(default_factory=dict)
    epochs: int = field(default=30, kw_only=True)
    batch_docs: int = 4
    schedule: str = "constant"
    warmup: float = 0.0
    min_lr_ratio: float = 0.05
    weight_decay: float = 1e-6
    clip: float = 5.0
    min_count: int = 2
    hide_boundaries: float = 0.25
    select_by: str = "parseval-micro-F"
    encoder_lr: float = 2e-5
    layer_decay: float = 0.9
    accumulate: int = 1
    device: str = "auto"
    amp: bool = True
    threads: int | None = None
    cache_dir: str | None = None
    stop_after: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.label_map not in label_map_names():
            raise RSTKitError(f"unknown label map {self.label_map!r}; choose from {', '.join(label_map_names())}")
        if self.schedule not in SCHEDULES:
            raise RSTKitError(f"unknown learning-rate schedule {self.schedule!r}; choose from {', '.join(SCHEDULES)}")
        parse_select_by(self.select_by)
        self.check_counts("batch_docs", "min_count", "accumulate")
        if self.threads is not None and (not isinstance(self.threads, int) or self.threads < 1):
            raise RSTKitError(f"threads must be an integer >= 1 or None, not {self.threads!r}")
        if self.stop_after is not None:
            self.check_counts("stop_after")
            if self.stop_after > self.epochs:
                raise RSTKitError(f"stop_after ({self.stop_after}) must be at most epochs ({self.epochs}): "
                                  "training cannot stop after an epoch its schedule does not have")
        self.check_positive("encoder_lr", "clip")
        self.check_ranges(warmup=(0, 1), min_lr_ratio=(0, 1), hide_boundaries=(0, 1), layer_decay=(0, 1),
                          weight_decay=(0, float("inf")))
        if self.layer_decay == 0:
            raise RSTKitError("layer_decay must be a number in (0, 1], not 0")
        if self.warmup >= 1:
            raise RSTKitError("warmup must be a fraction of the optimizer steps below 1")
        if not (self.device in ("auto", "cpu", "cuda") or self.device.startswith("cuda:")):
            raise RSTKitError(f"unknown device {self.device!r}; use auto, cpu or cuda")
        _check_keys(self.model_options, MODEL_OPTIONS, "model option")
        check_encoder_options(self.encoder, self.encoder_options)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
