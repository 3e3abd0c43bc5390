"""Training: teacher forcing on oracle states, batched across documents.

Each batch holds several whole documents; all of their oracle states are scored in one
pass. The learning rate is constant or follows a cosine decay over all ``epochs``. After
each epoch the dev set is parsed greedily and scored with original Parseval (micro, full
F, the model-selection metric); the best model is written to the output directory, a
checkpoint (model, optimizer, schedule, epoch, random states) allows ``resume``, and
training stops after ``patience`` epochs without improvement or after ``epochs``. How it
stopped (epochs run, the reason) is added to the model's config at the end.

Under ``torchrun`` (``WORLD_SIZE`` > 1) training runs with DistributedDataParallel
(NCCL on GPUs, gloo on CPUs): each process takes its share of every epoch's batches,
rank 0 evaluates and writes, and all processes stop together.
"""
from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..errors import RSTKitError
from ..labels import get_label_map
from ..metrics import EvalConfig, evaluate
from ..tree import RSTTree
from .data import prepare, prepare_training, training_tree
from .decode import autocast, decode
from .encoders import Vocabulary, needs_vocabulary
from .model import ParserModel, PreparedDocument, collate
from .modeldir import CONFIG, ModelSpec, build_model, save_model_dir

CHECKPOINT = "checkpoint.pt"
SCHEDULES = ("constant", "cosine")


@dataclass
class TrainConfig:
    """Training settings (all written to the model's config)."""

    label_map: str = "gum"
    encoder: str = "scratch"
    encoder_options: dict[str, Any] = field(default_factory=dict)
    model_options: dict[str, Any] = field(default_factory=dict)
    epochs: int = 30
    batch_docs: int = 4
    lr: float = 2e-3
    schedule: str = "constant"
    min_lr_ratio: float = 0.05
    weight_decay: float = 1e-6
    clip: float = 5.0
    patience: int = 5
    seed: int = 13
    min_count: int = 2
    hide_boundaries: float = 0.25
    device: str = "auto"
    amp: bool = True
    threads: int | None = None


def resolve_device(name: str) -> torch.device:
    """``auto`` (CUDA when available), ``cpu`` or ``cuda`` (an error when there is none)."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise RSTKitError("--device cuda, but torch sees no CUDA GPU (is this a CPU build of torch?)")
    if name != "cpu" and not name.startswith("cuda"):
        raise RSTKitError(f"unknown device {name!r}; use auto, cpu or cuda")
    return torch.device(name)


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def dev_scores(gold: dict[str, RSTTree], pred: dict[str, RSTTree], label_map: str) -> dict[str, float]:
    """Original Parseval micro S/N/R/F of ``pred`` (the model-selection metric)."""
    result = evaluate(gold, pred, EvalConfig(metric="parseval", average="micro", labels=label_map))
    return dict(result.scores)


def _distributed() -> tuple[int, int]:
    return int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))


def _log(message: str) -> None:
    if _distributed()[0] == 0:
        print(f"rstkit train: {message}", file=sys.stderr, flush=True)


def train(train_trees: dict[str, RSTTree], dev_trees: dict[str, RSTTree], out: str | Path,
          config: TrainConfig, resume: bool = False, info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Train a parser and write the best model (by dev original Parseval F) to ``out``."""
    rank, world = _distributed()
    if config.threads:
        torch.set_num_threads(config.threads)
    out = Path(out)
    device = resolve_device(config.device)
    if world > 1:
        device = _init_distributed(device, rank)
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
    if config.schedule not in SCHEDULES:
        raise RSTKitError(f"unknown learning-rate schedule {config.schedule!r}; choose from {', '.join(SCHEDULES)}")
    vocab = None
    if needs_vocabulary(config.encoder):
        vocab = Vocabulary.build((e.text for t in gold_train.values() for e in t.edus), config.min_count)
    model = build_model(spec, vocab).to(device)
    train_docs = [prepare_training(t, model.encoder, relations, model.context) for t in gold_train.values()]
    dev_docs = [prepare(d, t.edus, model.encoder) for d, t in gold_dev.items()]
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    steps_per_epoch = math.ceil(len(train_docs) / config.batch_docs) // world  # each process's batches
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_factor(config, max(1, steps_per_epoch)))
    use_amp = config.amp and device.type == "cuda"
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    state = {"epoch": 0, "best": -1.0, "best_epoch": 0, "bad_epochs": 0, "history": []}
    if resume:
        state = _load_checkpoint(out / CHECKPOINT, model, optimizer, scheduler)
    net = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
    _log(f"{len(train_docs)} training documents, {len(dev_docs)} dev, {len(relations)} relations, "
         f"{sum(p.numel() for p in model.parameters())} parameters, device {device}"
         + (f", {world} processes" if world > 1 else ""))
    from tqdm import tqdm

    while state["epoch"] < config.epochs and state["bad_epochs"] < config.patience:
        epoch = state["epoch"] + 1
        started = time.time()
        net.train()
        batches = _batches(train_docs, config.batch_docs, np.random.default_rng(config.seed + epoch))
        mine = batches[rank::world][:len(batches) // world] if world > 1 else batches
        total = 0.0
        for batch_docs in tqdm(mine, desc=f"epoch {epoch}", unit="batch", disable=rank != 0 or None, leave=False,
                               file=sys.stderr):
            batch = collate(batch_docs, model.encoder, device)
            optimizer.zero_grad(set_to_none=True)
            with autocast(device, use_amp):
                loss = net(batch)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), config.clip)
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
            total += loss.detach().item()
        if rank == 0:
            scores = dev_scores(gold_dev, decode(model, dev_docs, device, amp=use_amp), config.label_map)
            improved = scores["F"] > state["best"]
            state["history"].append({"epoch": epoch, "loss": total / max(1, len(mine)), "dev": scores,
                                     "seconds": round(time.time() - started, 1)})
            state["epoch"] = epoch
            if improved:
                state.update(best=scores["F"], best_epoch=epoch, bad_epochs=0)
                save_model_dir(out, model, spec, {**(info or {}), "train_config": asdict(config),
                                                  "best_epoch": epoch, "dev_parseval_micro": scores})
            else:
                state["bad_epochs"] += 1
            _save_checkpoint(out / CHECKPOINT, model, optimizer, scheduler, state)
            _log(f"epoch {epoch}: loss {total / max(1, len(mine)):.3f}, dev original Parseval micro "
                 + " ".join(f"{k} {v:.1f}" for k, v in scores.items())
                 + (" (best)" if improved else "") + f", {time.time() - started:.0f}s")
        else:
            state["epoch"] = epoch
        if world > 1:
            _agree(state, device)
    if world > 1:
        torch.distributed.destroy_process_group()
    state["stopped"] = "patience" if state["bad_epochs"] >= config.patience else "epochs"
    if rank == 0 and (out / CONFIG).is_file():
        _record_stop(out / CONFIG, state)
    return state


def lr_factor(config: TrainConfig, steps_per_epoch: int):
    """Multiplier of the learning rate at a step: 1, or a cosine from 1 down to
    ``min_lr_ratio`` over ``epochs`` epochs."""
    total = config.epochs * steps_per_epoch

    def factor(step: int) -> float:
        if config.schedule == "constant":
            return 1.0
        progress = min(1.0, step / total)
        return config.min_lr_ratio + (1 - config.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress))

    return factor


def _record_stop(config_file: Path, state: dict) -> None:
    """Add how training ended to the best model's config (it was written before the end)."""
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["info"].update(epochs_run=state["epoch"], stopped=state["stopped"],
                          dev_f_by_epoch=[round(h["dev"]["F"], 2) for h in state["history"]])
    config_file.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def without_boundaries(tree: RSTTree) -> RSTTree:
    """``tree`` with sentence and paragraph indices removed: a share of the training
    documents looks like inputs that lack them (plain text, .dis without ``<P>``)."""
    return replace(tree, edus=tuple(replace(e, sentence=None, paragraph=None) for e in tree.edus))


def _relations(tree: RSTTree) -> list[str]:
    from .transition import SHIFT, oracle_actions

    return [a.relation for a in oracle_actions(tree) if a.kind != SHIFT]


def _batches(docs: Sequence[PreparedDocument], size: int, rng: np.random.Generator) -> list[list[PreparedDocument]]:
    """Shuffled batches of documents of similar length (less padding)."""
    order = sorted(range(len(docs)), key=lambda i: (len(docs[i].edus), rng.random()))
    batches = [[docs[i] for i in order[s:s + size]] for s in range(0, len(order), size)]
    rng.shuffle(batches)
    return batches


def _save_checkpoint(path: Path, model: ParserModel, optimizer: torch.optim.Optimizer, scheduler, state: dict
                     ) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "state": state,
                "rng": {"python": random.getstate(), "numpy": np.random.get_state(),
                        "torch": torch.get_rng_state()}}, tmp)
    tmp.replace(path)


def _load_checkpoint(path: Path, model: ParserModel, optimizer: torch.optim.Optimizer, scheduler) -> dict:
    if not path.is_file():
        raise RSTKitError(f"cannot resume: no {CHECKPOINT} here", str(path.parent))
    saved = torch.load(path, map_location="cpu", weights_only=False)
    try:
        model.load_state_dict(saved["model"])
    except RuntimeError:
        raise RSTKitError("cannot resume: the checkpoint was trained with other settings or data "
                          "(vocabulary, relations or sizes differ)", str(path)) from None
    optimizer.load_state_dict(saved["optimizer"])
    scheduler.load_state_dict(saved["scheduler"])
    random.setstate(saved["rng"]["python"])
    np.random.set_state(saved["rng"]["numpy"])
    torch.set_rng_state(saved["rng"]["torch"])
    _log(f"resuming after epoch {saved['state']['epoch']} (best dev F {saved['state']['best']:.1f})")
    return saved["state"]


def _init_distributed(device: torch.device, rank: int) -> torch.device:
    import torch.distributed as dist

    if device.type == "cuda":
        local = int(os.environ.get("LOCAL_RANK", rank))
        torch.cuda.set_device(local)
        device = torch.device("cuda", local)
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    return device


def _agree(state: dict, device: torch.device) -> None:
    """Broadcast rank 0's stop decision (and epoch bookkeeping) to all processes."""
    import torch.distributed as dist

    flags = torch.tensor([float(state["bad_epochs"]), float(state["epoch"])],
                         device=device if device.type == "cuda" else "cpu")
    dist.broadcast(flags, 0)
    state["bad_epochs"], state["epoch"] = int(flags[0]), int(flags[1])
