"""A trained parser on disk, a model folder (:mod:`rstkit.models`): ``config.json`` + ``model.pt``
(+ ``vocab.txt`` for encoders with words), or an ensemble: a ``config.json`` naming member model
directories inside it.

The config names the model format, the rstkit version that wrote it, the label map and
relation classes, the encoder and every size needed to rebuild the network. Loading
checks all of it and says clearly what does not fit, instead of failing inside torch.
A directory loads when its format is one this rstkit reads, whichever rstkit version
wrote it. Weights are stored in float16 (half the size) and loaded back as float32.

Models shipped with rstkit are found by name (``minilm``, ``scratch``: :data:`rstkit.models.SHIPPED`;
their card is ``parsers/rstkit/README.md`` in the source tree).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from .._version import __version__
from ..errors import RSTKitError
from ..labels import get_label_map, label_map_names
from ..models import CONFIG, WEIGHTS, ModelDirError, config_text, read_weights, weights_bytes, write_model_dir
from ..models import read_config as read_folder_config
from ..vocabulary import Vocabulary
from .encoder_names import needs_vocabulary
from .encoders import build_encoder
from .model import ParserModel

#: bump when the layout of model directories or the network changes; READABLE lists the
#: formats this version loads (format 1: scratch models of rstkit 0.1, unchanged since)
MODEL_FORMAT = 2
READABLE_FORMATS = (1, 2)
VOCAB = "vocab.txt"
ENSEMBLE = "ensemble"


@dataclass
class ModelSpec:
    """Everything needed to rebuild a parser network (written to ``config.json``)."""

    label_map: str
    relations: list[str]
    encoder: str = "scratch"
    encoder_options: dict[str, Any] = field(default_factory=dict)
    model_options: dict[str, Any] = field(default_factory=dict)


def build_model(spec: ModelSpec, vocab: Vocabulary | None, cache_dir: str | Path | None = None) -> ParserModel:
    encoder = build_encoder(spec.encoder, spec.encoder_options, vocab, cache_dir)
    try:
        return ParserModel(encoder, spec.relations, **spec.model_options)
    except TypeError as exc:
        raise RSTKitError(f"bad model options: {exc}") from None


def save_model_dir(path: str | Path, model: ParserModel, spec: ModelSpec, info: dict[str, Any]) -> None:
    """Write a model directory (``info``: training facts such as corpus, epochs, dev scores)."""
    spec = ModelSpec(spec.label_map, spec.relations, spec.encoder, model.encoder.options(), spec.model_options)
    config = {"model_format": MODEL_FORMAT, "rstkit_version": __version__, **asdict(spec), "info": info}
    files: dict[str, str | bytes] = {WEIGHTS: weights_bytes(model.state_dict())}
    vocab = getattr(model.encoder, "vocab", None)
    if vocab is not None:
        files[VOCAB] = "\n".join(vocab.items[2:]) + "\n"
    files[CONFIG] = config_text(config)
    write_model_dir(path, files)


def save_ensemble_dir(path: str | Path, members: list[str], info: dict[str, Any]) -> None:
    """Make ``path`` an ensemble of its member model directories ``path/MEMBER`` (their
    log-probabilities are averaged); members must agree on label map and relations."""
    path = Path(path)
    configs = [read_config(path / m) for m in members]
    first = configs[0]
    for member, config in zip(members, configs):
        if config.get("kind") == ENSEMBLE:
            raise ModelDirError("an ensemble member cannot be an ensemble", str(path / member))
        if (config["label_map"], config["relations"]) != (first["label_map"], first["relations"]):
            raise ModelDirError("ensemble members disagree on label map or relations", str(path / member))
    write_model_dir(path, {CONFIG: config_text({
        "model_format": MODEL_FORMAT, "rstkit_version": __version__, "kind": ENSEMBLE, "members": list(members),
        "label_map": first["label_map"], "relations": first["relations"], "encoder": first["encoder"],
        "info": info})})


def read_config(path: str | Path) -> dict[str, Any]:
    """The checked config of a model directory."""
    config = read_folder_config(path, "parser")
    config_file = Path(path) / CONFIG
    found = config.get("model_format")
    if found not in READABLE_FORMATS:
        raise ModelDirError(f"model format {found!r} is not a format this rstkit reads "
                            f"({', '.join(map(str, READABLE_FORMATS))}; model written by rstkit "
                            f"{config.get('rstkit_version', 'unknown')}); retrain it with this version",
                            str(config_file))
    if found == 1 and config.get("encoder") != "scratch":
        raise ModelDirError(f"format-1 {config.get('encoder')} models used sentence vectors, which this rstkit no "
                            "longer has; retrain it", str(config_file))
    if config.get("label_map") not in label_map_names():
        raise ModelDirError(f"model uses unknown label map {config.get('label_map')!r}", str(config_file))
    return config


def member_dirs(path: str | Path, config: dict[str, Any]) -> list[Path]:
    """The model directories of a model: its members for an ensemble, itself otherwise."""
    path = Path(path)
    if config.get("kind") != ENSEMBLE:
        return [path]
    members = config.get("members")
    if not members or not isinstance(members, list):
        raise ModelDirError("ensemble without members", str(path / CONFIG))
    return [path / m for m in members]


def load_member(path: str | Path, device: torch.device, cache_dir: str | Path | None = None
                ) -> tuple[ParserModel, ModelSpec]:
    """One (non-ensemble) model directory onto ``device``."""
    path = Path(path)
    config = read_config(path)
    if config.get("kind") == ENSEMBLE:
        raise ModelDirError("an ensemble member cannot be an ensemble", str(path))
    spec = ModelSpec(**{k: config[k] for k in ("label_map", "relations", "encoder", "encoder_options",
                                                "model_options")})
    known = get_label_map(spec.label_map)
    unknown = [r for r in spec.relations if known.lookup(r) != r]
    if unknown:
        raise ModelDirError(f"relations {unknown} are not classes of label map {spec.label_map!r}", str(path))
    vocab = None
    if needs_vocabulary(spec.encoder):
        if not (path / VOCAB).is_file():
            raise ModelDirError(f"{spec.encoder}-encoder model without {VOCAB}", str(path))
        vocab = Vocabulary((path / VOCAB).read_text(encoding="utf-8").splitlines())
    model = build_model(spec, vocab, cache_dir)
    state = read_weights(path)
    try:
        model.load_state_dict(state)
    except (RuntimeError, KeyError) as exc:
        raise ModelDirError(f"weights do not fit the config: {str(exc).splitlines()[0]}", str(path / WEIGHTS)) from None
    model.to(device)
    model.eval()
    return model, spec
