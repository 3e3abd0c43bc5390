"""Model folders: how the parser and the segmenter keep a trained model, and find one by name.

A model folder holds ``config.json`` (what the model is and how it was trained; each kind adds
its own members), ``model.pt`` (the weights, floating-point tensors in float16: half the size,
read back as float32) and the model's vocabularies. Every model folder is written all at once
(:func:`rstkit.output.write_files`: an interrupted save leaves the old files, never half a
model) and read with one kind of error, naming the folder or file.

Models shipped with rstkit are listed once, in :data:`SHIPPED` (their folders are
``rstkit/data/models/NAME``), and found by name with :func:`locate`. :class:`TrainSettings` holds
what every training run is given (epochs, patience, learning rate, seed), checked when it is made;
the parser's and the segmenter's settings add their own.
"""
from __future__ import annotations

import io
import json
import math
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from .errors import RSTKitError
from .output import write_files

ModelKind = Literal["parser", "segmenter"]
CONFIG, WEIGHTS = "config.json", "model.pt"


class ModelDirError(RSTKitError):
    """A model folder is missing, damaged, or from an incompatible version or label map."""


@dataclass(frozen=True)
class ShippedModel:
    kind: ModelKind
    description: str


#: the models shipped in the package, each kind's default first and its fallback (fewest needs) last
SHIPPED: dict[str, ShippedModel] = {
    "minilm": ShippedModel("parser", "an ensemble over frozen all-MiniLM-L6-v2 token features"),
    "mpnet": ShippedModel("parser", "an ensemble over frozen all-mpnet-base-v2 token features (the mpnet extra)"),
    "scratch": ShippedModel("parser", "word embeddings and a BiLSTM (needs nothing but torch)"),
    "segmenter": ShippedModel("segmenter", "the default model (word, character and MiniLM features)"),
    "segmenter-base": ShippedModel("segmenter", "word and character features only (needs nothing but torch)"),
}


def shipped(kind: ModelKind) -> tuple[str, ...]:
    """The names of the shipped models of ``kind``, the default first, the fallback last."""
    return tuple(name for name, model in SHIPPED.items() if model.kind == kind)


def shipped_model_dir(name: str, kind: ModelKind | None = None) -> Path:
    """The folder of shipped model ``name`` (of ``kind``, when given) inside the installed package."""
    names = shipped(kind) if kind else tuple(SHIPPED)
    if name not in names:
        raise ModelDirError(f"no shipped {kind + ' ' if kind else ''}model {name!r}; shipped: {', '.join(names)} "
                            "(or give a model directory)")
    where = resources.files("rstkit").joinpath("data", "models", name)
    if not isinstance(where, Path):
        raise ModelDirError(f"the shipped model {name!r} is not installed as files (zipped package?)", str(where))
    return where


def locate(model: str | Path, kind: ModelKind) -> Path:
    """The folder ``model`` names: an existing directory, else the shipped model of ``kind`` of that name."""
    path = Path(model)
    if path.is_dir() or str(model) not in shipped(kind):
        if not path.exists():
            raise ModelDirError(f"no such model directory, and no shipped {kind} model of that name (shipped: "
                                f"{', '.join(shipped(kind))})", str(model))
        return path
    return shipped_model_dir(str(model), kind)


def read_config(folder: str | Path, kind: ModelKind) -> dict[str, Any]:
    """The ``config.json`` of a model folder as a mapping (its members are checked by its kind)."""
    config_file = Path(folder) / CONFIG
    if not config_file.is_file():
        raise ModelDirError(f"not a {kind} model directory (no {CONFIG})", str(folder))
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ModelDirError(f"unreadable config: {exc.msg}", str(config_file), exc.lineno) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelDirError(f"unreadable config: {exc}", str(config_file)) from None
    if not isinstance(config, dict):
        raise ModelDirError("unreadable config: not a JSON object", str(config_file))
    return config


def config_text(config: Mapping[str, Any], indent: int = 2) -> str:
    """``config.json``'s text."""
    return json.dumps(config, indent=indent, ensure_ascii=False) + "\n"


def weights_bytes(state: Mapping[str, Any]) -> bytes:
    """``model.pt``'s bytes: a state dict with its floating-point tensors in float16, on the CPU."""
    import torch

    buffer = io.BytesIO()
    torch.save({k: (v.half() if v.is_floating_point() else v).cpu() for k, v in state.items()}, buffer)
    return buffer.getvalue()


def read_weights(folder: str | Path) -> dict[str, Any]:
    """The state dict in ``model.pt``, floating-point tensors as float32."""
    import torch

    path = Path(folder) / WEIGHTS
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, ValueError, EOFError, pickle.UnpicklingError) as exc:
        raise ModelDirError(f"unreadable weights: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}",
                            str(path)) from None
    if not isinstance(state, dict):
        raise ModelDirError("unreadable weights: not a state dict", str(path))
    return {k: v.float() if v.is_floating_point() else v for k, v in state.items()}


def write_model_dir(folder: str | Path, files: Mapping[str, str | bytes]) -> None:
    """Write a model folder's files at once (other files already there are kept)."""
    write_files(folder, files, into_directory=True, force=True)


@dataclass(frozen=True, kw_only=True)
class TrainSettings:
    """What every training run is given: at most ``epochs`` epochs, stopped after ``patience``
    epochs without a better dev score, learning rate ``lr``, random ``seed``."""

    epochs: int = 20
    patience: int = 5
    lr: float = 2e-3
    seed: int = 13

    def __post_init__(self) -> None:
        self.check_counts("epochs", "patience")
        self.check_positive("lr")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise RSTKitError(f"seed must be an integer, not {self.seed!r}")

    def check_counts(self, *names: str) -> None:
        """Each setting of ``names`` is an integer >= 1."""
        for name in names:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise RSTKitError(f"{name} must be an integer >= 1, not {value!r}")

    def check_positive(self, *names: str) -> None:
        """Each setting of ``names`` is a number > 0."""
        for name in names:
            value = getattr(self, name)
            if not is_number(value) or value <= 0:
                raise RSTKitError(f"{name} must be a number > 0, not {value!r}")

    def check_ranges(self, **ranges: tuple[float, float]) -> None:
        """Each setting ``name=(low, high)`` is a number in ``[low, high]``."""
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if not is_number(value) or not low <= value <= high:
                raise RSTKitError(f"{name} must be a number in [{low}, {high}], not {value!r}")


def is_number(value: Any) -> bool:
    """An int or float (not a bool), not NaN."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)
