"""Training the parser: teacher forcing on oracle states, batched across documents, through the
one training loop (:func:`rstkit.training.fit`; this module gives it the parser's hooks,
:class:`ParserTrainee`).

Each batch holds several whole documents; all of their oracle states are scored in one
pass; the gradients of ``accumulate`` batches make one optimizer step (AdamW). The learning rate
warms up linearly over a fraction of all steps, then stays constant or decays (cosine or
linear) to ``min_lr_ratio``; a fine-tuned transformer's layers learn at ``encoder_lr``
times ``layer_decay`` per layer below the top, its embeddings lowest. After each epoch
the dev set is parsed greedily and scored with the ``select_by`` metric; the best model is
written to the output directory at once (without dev documents, the model of every epoch replaces the
last: the model written is that of the last epoch). The loop's checkpoint lets ``resume`` continue exactly
where training stopped, and runs under ``torchrun`` share every epoch's batches. Training stops
after ``patience`` epochs without improvement or after ``epochs`` (``stop_after``, when set, ends it earlier with
the schedule unchanged); how it stopped is added to the
model's config at the end.
"""
from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..cache import cache_dir
from ..errors import RSTKitError
from ..labels import get_label_map
from ..metrics import EvalConfig, score_documents
from ..models import config_text, write_model_dir
from ..progress import Progress
from ..training import (
    CHECKPOINT,
    Trainee,
    distributed,
    fit,
    init_distributed,
    leave_distributed,
    seed_everything,
    stderr_log,
)
from ..tree import RSTTree
from .config import TrainConfig, parse_select_by
from .data import training_input, training_tree
from .decode import autocast, decode
from .encoder_names import needs_vocabulary, pretrained_part
from .encoders import build_vocabulary
from .ensemble import ModelEnsemble
from .model import ParserInput, ParserModel, collate
from .modeldir import CONFIG, ModelSpec, build_model, save_ensemble_dir, save_model_dir
from .threads import default_threads

_LAYER = re.compile(r"\.(?:layer|layers|h|block)\.(\d+)\.")


def resolve_device(name: str) -> torch.device:
    """``auto`` (CUDA when available), ``cpu`` or ``cuda`` (an error when there is none)."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise RSTKitError("device cuda, but torch sees no CUDA GPU (is this a CPU build of torch?)")
    if name != "cpu" and not name.startswith("cuda"):
        raise RSTKitError(f"unknown device {name!r}; use auto, cpu or cuda")
    return torch.device(name)


def dev_scores(gold: dict[str, RSTTree], pred: dict[str, RSTTree], label_map: str, select_by: str
               ) -> dict[str, float]:
    """S/N/R/F of ``pred`` under the metric and average of ``select_by`` (e.g. ``parseval-micro-F``)."""
    metric, average, _ = parse_select_by(select_by)
    result = score_documents(gold, pred, EvalConfig(metric=metric, average=average, labels=label_map))
    return dict(result.scores)


_log = stderr_log("train")


def check_output_dir(out: str | Path) -> Path:
    """Fail before any long work when ``out`` cannot be a writable model directory."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RSTKitError("output exists and is not a directory", str(out))
    parent = out if out.exists() else next((p for p in out.parents if p.exists()), Path("."))
    if not parent.is_dir():
        raise RSTKitError(f"cannot create the output directory: {parent} is not a directory", str(out))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise RSTKitError("output directory is not writable", str(parent))
    return out


def _cache_dir(config: TrainConfig) -> str | None:
    if pretrained_part(config.encoder) is None or config.cache_dir == "":
        return None
    return config.cache_dir or str(cache_dir("features"))


class ParserTrainee(Trainee):
    """The parser's hooks of the training loop (:func:`rstkit.training.fit`): batches of whole
    documents, AdamW with parameter groups, a per-step schedule, AMP on CUDA, dev parsing scored
    by ``select_by``, the best model written to ``out`` as soon as it is found."""

    model: ParserModel

    def __init__(self, model: ParserModel, spec: ModelSpec, config: TrainConfig, train_docs: list[ParserInput],
                 gold_dev: dict[str, RSTTree], dev_docs: list[ParserInput], scorer: ModelEnsemble, out: Path,
                 device: torch.device, info: dict[str, Any]):
        self.model, self.spec, self.config, self.out, self.device, self.info = model, spec, config, out, device, info
        self.train_docs, self.gold_dev, self.dev_docs, self.scorer = train_docs, gold_dev, dev_docs, scorer
        self.key = parse_select_by(config.select_by)[2]
        self.selects, self.stop_after = bool(dev_docs), config.stop_after
        self.clip, self.accumulate = config.clip, config.accumulate
        self.amp = config.amp and device.type == "cuda"
        self.optimizer = torch.optim.AdamW(parameter_groups(model, config), weight_decay=config.weight_decay)
        batches_per_epoch = math.ceil(len(train_docs) / config.batch_docs) // distributed()[1]  # each process's
        steps_per_epoch = max(1, math.ceil(batches_per_epoch / config.accumulate))
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lr_factor(config, steps_per_epoch))

    def batches(self, epoch: int) -> list[list[ParserInput]]:
        return _batches(self.train_docs, self.config.batch_docs, np.random.default_rng(self.config.seed + epoch))

    def loss(self, net: torch.nn.Module, batch: list[ParserInput]) -> tuple[torch.Tensor, int]:
        inputs = collate(batch, self.model.encoder, self.device)
        with autocast(self.device, self.amp):
            return net(inputs), 1

    def evaluate(self) -> tuple[dict[str, float], float]:
        scores = dev_scores(self.gold_dev, decode(self.scorer, self.dev_docs, self.device, amp=self.amp),
                            self.config.label_map, self.config.select_by)
        return scores, scores[self.key]

    def describe(self, scores: dict[str, float]) -> str:
        return f"{self.config.select_by.rsplit('-', 1)[0]} " + " ".join(f"{k} {v:.1f}" for k, v in scores.items())

    def keep_best(self, epoch: int, scores: dict[str, float]) -> None:
        if not self.selects:  # no dev documents: this epoch's model replaces the last
            save_model_dir(self.out, self.model, self.spec, {**self.info, "train_config": self.config.as_dict(),
                                                             "epoch": epoch})
            return
        save_model_dir(self.out, self.model, self.spec, {**self.info, "train_config": self.config.as_dict(),
                                                         "best_epoch": epoch, "select_by": self.config.select_by,
                                                         "dev_scores": scores})


def train(train_trees: dict[str, RSTTree], dev_trees: dict[str, RSTTree], out: str | Path,
          config: TrainConfig, resume: bool = False, info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Train a parser and write the best model (by the dev ``select_by`` metric) to ``out``;
    with no ``dev_trees``, the model after the last epoch (``stop_after`` or ``epochs``)."""
    rank, world = distributed()
    out = check_output_dir(out)
    torch.set_num_threads(config.threads or default_threads(len(train_trees)))
    device = resolve_device(config.device)
    if world > 1:
        device = init_distributed(device, rank)
    seed_everything(config.seed)
    label_map = get_label_map(config.label_map)
    hide = np.random.default_rng(config.seed).random(len(train_trees)) < config.hide_boundaries
    gold_train = {d: training_tree(without_boundaries(t) if h else t, label_map)
                  for (d, t), h in zip(train_trees.items(), hide)}
    gold_dev = {d: label_map.apply(t) for d, t in dev_trees.items()}
    relations = sorted({a for t in gold_train.values() for a in _relations(t)})
    if not gold_train or not relations:
        raise RSTKitError("no training documents with at least two EDUs")
    spec = ModelSpec(config.label_map, relations, config.encoder, dict(config.encoder_options),
                     dict(config.model_options))
    vocab = None
    if needs_vocabulary(config.encoder):
        vocab = build_vocabulary((e.text for t in gold_train.values() for e in t.edus), config.min_count)
    model = build_model(spec, vocab, _cache_dir(config)).to(device)
    started = time.time()
    train_docs = [training_input(tree, model.encoder, relations, model.context)  # pretrained states: minutes
                  for tree in Progress.counting(list(gold_train.values()), "prepare training inputs", "doc")]
    scorer = ModelEnsemble([model])
    dev_docs = [scorer.parser_input(doc_id, tree.edus)
                for doc_id, tree in Progress.counting(list(gold_dev.items()), "prepare dev inputs", "doc")]
    _log(f"inputs prepared in {time.time() - started:.0f}s")
    trainee = ParserTrainee(model, spec, config, train_docs, gold_dev, dev_docs, scorer, out, device, info or {})
    _log(f"{len(train_docs)} training documents, {len(dev_docs)} dev, {len(relations)} relations, "
         f"{sum(p.numel() for p in model.parameters() if p.requires_grad)} trained parameters, device {device}, "
         + (f"selecting by dev {config.select_by}" if dev_docs
            else f"no dev selection: the model after epoch {config.stop_after or config.epochs}")
         + (f", {world} processes" if world > 1 else ""))
    state = fit(trainee, config, out, resume=resume, log=_log, device=device)
    if world > 1:
        leave_distributed()
    if rank == 0 and (out / CONFIG).is_file():
        _record_stop(out, state, trainee.key)
    return state


def train_ensemble(train_trees: dict[str, RSTTree], dev_trees: dict[str, RSTTree], out: str | Path,
                   config: TrainConfig, seeds: Sequence[int], resume: bool = False,
                   info: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One model per seed in ``out/seedS``, then ``out`` their ensemble; the training states."""
    out = check_output_dir(out)
    states = []
    for seed in seeds:
        member = out / f"seed{seed}"
        states.append(train(train_trees, dev_trees, member, replace(config, seed=seed),
                            resume=resume and (member / CHECKPOINT).is_file(), info=info))
    if distributed()[0] == 0:
        members = [f"seed{s}" for s in seeds]
        dev = {"members_dev": {m: s["best"] for m, s in zip(members, states)}} if dev_trees else {}
        save_ensemble_dir(out, members, {**(info or {}), "seeds": list(seeds), **dev})
    return states


def parameter_groups(model: ParserModel, config: TrainConfig) -> list[dict[str, Any]]:
    """The parser's parameters at ``lr``; a fine-tuned transformer's at ``encoder_lr`` scaled
    by ``layer_decay`` for each layer below the top (embeddings one below the first layer)."""
    parser: list[torch.nn.Parameter] = []
    layered: dict[int | None, list[torch.nn.Parameter]] = {}  # by layer depth (None: not in a layer)
    for name, parameter in model.named_parameters():
        if not parameter.requires_grad:
            continue
        if ".transformer." not in f".{name}":
            parser.append(parameter)
            continue
        match = _LAYER.search(name)
        depth = int(match.group(1)) + 1 if match else (0 if "embed" in name else None)
        layered.setdefault(depth, []).append(parameter)
    groups = [{"params": parser, "lr": config.lr}]
    if layered:
        top = max(d for d in layered if d is not None) if any(d is not None for d in layered) else 0
        for depth, params in sorted(layered.items(), key=lambda item: -1 if item[0] is None else item[0]):
            below = 0 if depth is None else top - depth
            groups.append({"params": params, "lr": config.encoder_lr * config.layer_decay ** below})
    return groups


def lr_factor(config: TrainConfig, steps_per_epoch: int) -> Callable[[int], float]:
    """Multiplier of the learning rates at an optimizer step: a linear warm-up over
    ``warmup`` of all steps, then 1 (constant) or a cosine or linear decay to ``min_lr_ratio``."""
    total = config.epochs * steps_per_epoch
    warm = int(config.warmup * total)

    def factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        if config.schedule == "constant":
            return 1.0
        progress = min(1.0, (step - warm) / max(1, total - warm))
        shape = 0.5 * (1 + math.cos(math.pi * progress)) if config.schedule == "cosine" else 1 - progress
        return config.min_lr_ratio + (1 - config.min_lr_ratio) * shape

    return factor


def _record_stop(out: Path, state: dict, key: str) -> None:
    """Add how training ended to the best model's config (it was written before the end)."""
    config = json.loads((out / CONFIG).read_text(encoding="utf-8"))
    config["info"].update(epochs_run=state["epoch"], stopped=state["stopped"])
    if all("dev" in h for h in state["history"]):  # not when trained without dev documents
        config["info"]["dev_by_epoch"] = [round(h["dev"][key], 2) for h in state["history"]]
    config["info"]["seconds_by_epoch"] = [h["seconds"] for h in state["history"]]
    write_model_dir(out, {CONFIG: config_text(config)})


def without_boundaries(tree: RSTTree) -> RSTTree:
    """``tree`` with sentence and paragraph indices removed: a share of the training
    documents looks like inputs that lack them (plain text, .dis without ``<P>``)."""
    return replace(tree, edus=tuple(replace(e, sentence=None, paragraph=None) for e in tree.edus))


def _relations(tree: RSTTree) -> list[str]:
    from .transition import SHIFT, oracle_actions

    return [a.relation for a in oracle_actions(tree) if a.kind != SHIFT]  # type: ignore[misc]


def _batches(docs: Sequence[ParserInput], size: int, rng: np.random.Generator) -> list[list[ParserInput]]:
    """Shuffled batches of documents of similar length (less padding)."""
    order = sorted(range(len(docs)), key=lambda i: (len(docs[i].edus), rng.random()))
    batches = [[docs[i] for i in order[s:s + size]] for s in range(0, len(order), size)]
    rng.shuffle(batches)
    return batches
