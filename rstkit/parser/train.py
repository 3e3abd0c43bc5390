"""Training: teacher forcing on oracle states, batched across documents.

Each batch holds several whole documents; all of their oracle states are scored in one
pass; the gradients of ``accumulate`` batches make one optimizer step. The learning rate
warms up linearly over a fraction of all steps, then stays constant or decays (cosine or
linear) to ``min_lr_ratio``; a fine-tuned transformer's layers learn at ``encoder_lr``
times ``layer_decay`` per layer below the top, its embeddings lowest. After each epoch
the dev set is parsed greedily and scored with the ``select_by`` metric; the best model is
written to the output directory (without dev documents, the model of every epoch replaces the
last: the model written is that of the last epoch), and a checkpoint (model, optimizer, schedule, AMP grad
scaler, epoch, every random state) lets ``resume`` continue exactly where training
stopped. Training stops after ``patience`` epochs without improvement or after
``epochs`` (``stop_after``, when set, ends it earlier with the schedule unchanged); how it
stopped is added to the model's config at the end.

Under ``torchrun`` (``WORLD_SIZE`` > 1) training runs with DistributedDataParallel
(NCCL on GPUs, gloo on CPUs): each process takes its share of every epoch's batches,
rank 0 evaluates and writes, and all processes stop together.
"""
from __future__ import annotations

import json
import math
import os
import random
import re
import sys
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

CHECKPOINT = "checkpoint.pt"
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


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def dev_scores(gold: dict[str, RSTTree], pred: dict[str, RSTTree], label_map: str, select_by: str
               ) -> dict[str, float]:
    """S/N/R/F of ``pred`` under the metric and average of ``select_by`` (e.g. ``parseval-micro-F``)."""
    metric, average, _ = parse_select_by(select_by)
    result = score_documents(gold, pred, EvalConfig(metric=metric, average=average, labels=label_map))
    return dict(result.scores)


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


def _distributed() -> tuple[int, int]:
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


def _log(message: str) -> None:
    if _distributed()[0] == 0:
        print(f"rstkit train: {message}", file=sys.stderr, flush=True)


def _cache_dir(config: TrainConfig) -> str | None:
    if pretrained_part(config.encoder) is None or config.cache_dir == "":
        return None
    return config.cache_dir or str(cache_dir("features"))


def train(train_trees: dict[str, RSTTree], dev_trees: dict[str, RSTTree], out: str | Path,
          config: TrainConfig, resume: bool = False, info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Train a parser and write the best model (by the dev ``select_by`` metric) to ``out``;
    with no ``dev_trees``, the model after the last epoch (``stop_after`` or ``epochs``)."""
    rank, world = _distributed()
    out = check_output_dir(out)
    torch.set_num_threads(config.threads or default_threads(len(train_trees)))
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
    vocab = None
    if needs_vocabulary(config.encoder):
        vocab = build_vocabulary((e.text for t in gold_train.values() for e in t.edus), config.min_count)
    model = build_model(spec, vocab, _cache_dir(config)).to(device)
    started = time.time()
    train_docs = [training_input(t, model.encoder, relations, model.context) for t in gold_train.values()]
    scorer = ModelEnsemble([model])
    dev_docs = [scorer.parser_input(d, t.edus) for d, t in gold_dev.items()]
    _log(f"inputs prepared in {time.time() - started:.0f}s")
    optimizer = torch.optim.AdamW(parameter_groups(model, config), weight_decay=config.weight_decay)
    batches_per_epoch = math.ceil(len(train_docs) / config.batch_docs) // world  # each process's batches
    steps_per_epoch = max(1, math.ceil(batches_per_epoch / config.accumulate))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_factor(config, steps_per_epoch))
    use_amp = config.amp and device.type == "cuda"
    scaler = torch.amp.GradScaler("cuda", enabled=use_amp)
    state: dict[str, Any] = {"epoch": 0, "best": -math.inf, "best_epoch": 0, "bad_epochs": 0, "history": []}
    if resume:
        state = _load_checkpoint(out / CHECKPOINT, model, optimizer, scheduler, scaler)
    net = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
    last = config.stop_after or config.epochs
    _log(f"{len(train_docs)} training documents, {len(dev_docs)} dev, {len(relations)} relations, "
         f"{sum(p.numel() for p in model.parameters() if p.requires_grad)} trained parameters, device {device}, "
         + (f"selecting by dev {config.select_by}" if dev_docs else f"no dev selection: the model after epoch {last}")
         + (f", {world} processes" if world > 1 else ""))
    from tqdm import tqdm

    key = parse_select_by(config.select_by)[2]
    while state["epoch"] < last and state["bad_epochs"] < config.patience:
        epoch = state["epoch"] + 1
        started = time.time()
        net.train()
        batches = _batches(train_docs, config.batch_docs, np.random.default_rng(config.seed + epoch))
        mine = batches[rank::world][:len(batches) // world] if world > 1 else batches
        total = 0.0
        optimizer.zero_grad(set_to_none=True)
        for number, batch_docs in enumerate(tqdm(mine, desc=f"epoch {epoch}", unit="batch",
                                                 disable=rank != 0 or None, leave=False, file=sys.stderr), 1):
            batch = collate(batch_docs, model.encoder, device)
            with autocast(device, use_amp):
                loss = net(batch)
            scaler.scale(loss / config.accumulate).backward()
            total += loss.detach().item()
            if number % config.accumulate == 0 or number == len(mine):
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.clip)
                scaler.step(optimizer)
                scaler.update()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
        if rank == 0 and not dev_docs:  # nothing to select by: this epoch's model replaces the last
            state["history"].append({"epoch": epoch, "loss": total / max(1, len(mine)),
                                     "seconds": round(time.time() - started, 1)})
            state.update(epoch=epoch, best_epoch=epoch)
            save_model_dir(out, model, spec, {**(info or {}), "train_config": config.as_dict(), "epoch": epoch})
            _save_checkpoint(out / CHECKPOINT, model, optimizer, scheduler, scaler, state)
            _log(f"epoch {epoch}: loss {total / max(1, len(mine)):.3f}, no dev, {time.time() - started:.0f}s")
        elif rank == 0:
            scores = dev_scores(gold_dev, decode(scorer, dev_docs, device, amp=use_amp), config.label_map,
                                config.select_by)
            improved = scores[key] > state["best"]
            state["history"].append({"epoch": epoch, "loss": total / max(1, len(mine)), "dev": scores,
                                     "seconds": round(time.time() - started, 1)})
            state["epoch"] = epoch
            if improved:
                state.update(best=scores[key], best_epoch=epoch, bad_epochs=0)
                save_model_dir(out, model, spec, {**(info or {}), "train_config": config.as_dict(),
                                                  "best_epoch": epoch, "select_by": config.select_by,
                                                  "dev_scores": scores})
            else:
                state["bad_epochs"] += 1
            _save_checkpoint(out / CHECKPOINT, model, optimizer, scheduler, scaler, state)
            _log(f"epoch {epoch}: loss {total / max(1, len(mine)):.3f}, dev {config.select_by.rsplit('-', 1)[0]} "
                 + " ".join(f"{k} {v:.1f}" for k, v in scores.items())
                 + (" (best)" if improved else "") + f", {time.time() - started:.0f}s")
        else:
            state["epoch"] = epoch
        if world > 1:
            _agree(state, device)
    if world > 1:
        torch.distributed.destroy_process_group()
    state["stopped"] = ("patience" if state["bad_epochs"] >= config.patience
                        else "stop_after" if state["epoch"] < config.epochs else "epochs")
    if rank == 0 and (out / CONFIG).is_file():
        _record_stop(out / CONFIG, state, key)
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
    if _distributed()[0] == 0:
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


def _record_stop(config_file: Path, state: dict, key: str) -> None:
    """Add how training ended to the best model's config (it was written before the end)."""
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["info"].update(epochs_run=state["epoch"], stopped=state["stopped"])
    if all("dev" in h for h in state["history"]):  # not when trained without dev documents
        config["info"]["dev_by_epoch"] = [round(h["dev"][key], 2) for h in state["history"]]
    config["info"]["seconds_by_epoch"] = [h["seconds"] for h in state["history"]]
    config_file.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


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


def _random_states() -> dict[str, Any]:
    states = {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        states["cuda"] = torch.cuda.get_rng_state_all()
    return states


def _save_checkpoint(path: Path, model: ParserModel, optimizer: torch.optim.Optimizer, scheduler, scaler,
                     state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(), "scaler": scaler.state_dict(), "state": state,
                "rng": _random_states()}, tmp)
    tmp.replace(path)


def _load_checkpoint(path: Path, model: ParserModel, optimizer: torch.optim.Optimizer, scheduler, scaler) -> dict:
    if not path.is_file():
        raise RSTKitError(f"cannot resume: no {CHECKPOINT} here", str(path.parent))
    saved = torch.load(path, map_location="cpu", weights_only=False)
    try:
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
    except (RuntimeError, ValueError):
        raise RSTKitError("cannot resume: the checkpoint was trained with other settings or data "
                          "(vocabulary, relations or sizes differ)", str(path)) from None
    scheduler.load_state_dict(saved["scheduler"])
    scaler.load_state_dict(saved["scaler"])
    rng = saved["rng"]
    random.setstate(rng["python"])
    np.random.set_state(rng["numpy"])
    torch.set_rng_state(rng["torch"])
    if "cuda" in rng and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(rng["cuda"])
    _log(f"resuming after epoch {saved['state']['epoch']} (best dev {saved['state']['best']:.1f})")
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
