"""A trained parser on disk: ``config.json`` + ``model.pt`` (+ ``vocab.txt`` for encoders with words).

The config names the model format, the rstkit version that wrote it, the label map and
relation classes, the encoder and every size needed to rebuild the network. Loading
checks all of it and says clearly what does not fit, instead of failing inside torch.
Weights are stored in float16 (half the size) and loaded back as float32.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from .._version import __version__
from ..errors import RSTKitError
from ..labels import get_label_map, label_map_names
from .encoders import Vocabulary, build_encoder, needs_vocabulary
from .model import ParserModel

#: bump when the layout of model directories or the network changes
MODEL_FORMAT = 1
CONFIG, WEIGHTS, VOCAB = "config.json", "model.pt", "vocab.txt"


class ModelDirError(RSTKitError):
    """A model directory is missing, damaged, or from an incompatible version or label map."""


@dataclass
class ModelSpec:
    """Everything needed to rebuild a parser network (written to ``config.json``)."""

    label_map: str
    relations: list[str]
    encoder: str = "scratch"
    encoder_options: dict[str, Any] = field(default_factory=dict)
    model_options: dict[str, Any] = field(default_factory=dict)


def build_model(spec: ModelSpec, vocab: Vocabulary | None) -> ParserModel:
    return ParserModel(build_encoder(spec.encoder, spec.encoder_options, vocab), spec.relations, **spec.model_options)


def _series(version: str) -> str:
    return ".".join(version.split(".")[:2])


def save_model_dir(path: str | Path, model: ParserModel, spec: ModelSpec, info: dict[str, Any]) -> None:
    """Write a model directory (``info``: training facts such as corpus, epochs, dev scores)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    config = {"model_format": MODEL_FORMAT, "rstkit_version": __version__, **asdict(spec), "info": info}
    state = {k: (v.half() if v.is_floating_point() else v).cpu() for k, v in model.state_dict().items()}
    torch.save(state, path / WEIGHTS)
    vocab = getattr(model.encoder, "vocab", None)
    if vocab is not None:
        (path / VOCAB).write_text("\n".join(vocab.tokens[2:]) + "\n", encoding="utf-8")
    (path / CONFIG).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def read_config(path: str | Path) -> dict[str, Any]:
    """The checked config of a model directory."""
    path = Path(path)
    config_file = path / CONFIG
    if not config_file.is_file():
        raise ModelDirError(f"not a parser model directory (no {CONFIG})", str(path))
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ModelDirError(f"unreadable config: {exc.msg}", str(config_file), exc.lineno) from None
    found = config.get("model_format")
    if found != MODEL_FORMAT:
        raise ModelDirError(f"model format {found!r} is not the format {MODEL_FORMAT} this rstkit reads "
                            f"(model written by rstkit {config.get('rstkit_version', 'unknown')}); retrain it "
                            "with this version", str(config_file))
    written_by = str(config.get("rstkit_version", ""))
    if _series(written_by) != _series(__version__):
        raise ModelDirError(f"model written by rstkit {written_by or 'unknown'}, this is rstkit {__version__}: "
                            "versions of another series are not compatible; retrain it", str(config_file))
    if config.get("label_map") not in label_map_names():
        raise ModelDirError(f"model uses unknown label map {config.get('label_map')!r}", str(config_file))
    return config


def load_model_dir(path: str | Path, device: torch.device, label_map: str | None = None
                   ) -> tuple[ParserModel, ModelSpec, dict[str, Any]]:
    """Load a model directory onto ``device``; ``label_map`` (if given) must be the model's."""
    path = Path(path)
    config = read_config(path)
    spec = ModelSpec(**{k: config[k] for k in ("label_map", "relations", "encoder", "encoder_options",
                                                "model_options")})
    if label_map is not None and label_map != spec.label_map:
        raise ModelDirError(f"model predicts {spec.label_map!r} relation classes, not {label_map!r}", str(path))
    known = get_label_map(spec.label_map)
    unknown = [r for r in spec.relations if known.lookup(r) != r]
    if unknown:
        raise ModelDirError(f"relations {unknown} are not classes of label map {spec.label_map!r}", str(path))
    vocab = None
    if needs_vocabulary(spec.encoder):
        if not (path / VOCAB).is_file():
            raise ModelDirError(f"{spec.encoder}-encoder model without {VOCAB}", str(path))
        vocab = Vocabulary((path / VOCAB).read_text(encoding="utf-8").splitlines())
    model = build_model(spec, vocab)
    try:
        state = torch.load(path / WEIGHTS, map_location="cpu", weights_only=True)
        model.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in state.items()})
    except (OSError, RuntimeError, KeyError) as exc:
        raise ModelDirError(f"weights do not fit the config: {str(exc).splitlines()[0]}", str(path / WEIGHTS)) from None
    model.to(device)
    model.eval()
    return model, spec, config


def default_model_dir() -> Path:
    """The shipped model, installed with the package (``rstkit/data/models/gum``; its card is
    ``parsers/rstkit/README.md`` in the source tree)."""
    return Path(__file__).resolve().parents[1] / "data" / "models" / "gum"
