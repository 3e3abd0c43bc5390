"""The one training loop of rstkit's models (the parser and the segmenter), with per-model hooks.

:func:`fit` runs epochs of mini-batches until ``epochs`` or until ``patience`` epochs in a row do not
improve the dev score; what differs between the models is what a :class:`Trainee` says: its
batches, the loss of a batch, its optimizer and learning-rate schedule, its dev scores and the
number that selects the model, and what it does with a better model. The rest is done the same way
for both:

* seeding: :func:`seed_everything` (Python's, numpy's and torch's generators) before the model is built;
* a step: the loss of each batch (a mean, and its weight: the items it averages) scaled by AMP's
  gradient scaler (a no-op without AMP) and divided by ``accumulate``, its gradients clipped to the
  trainee's ``clip`` norm, one optimizer step every ``accumulate`` batches, the schedule stepped
  after each optimizer step or after each epoch (``schedule_per``);
* the epoch's loss: the weighted mean of its batches' losses;
* the checkpoint (``checkpoint.pt`` in the output folder, written after every epoch through
  :func:`rstkit.output.replacing_file`): the model, optimizer, schedule, gradient scaler, the
  training state, every random generator's state and what the trainee keeps (the segmenter: its
  best weights), so that ``resume`` continues exactly where training stopped;
* the log: one line per epoch (``epoch N: loss L, dev ..., (best), Ss``), and progress of the
  epoch's batches (:class:`rstkit.progress.Progress`: shown where the caller asked);
* several processes under ``torchrun`` (``WORLD_SIZE`` > 1): each takes its share of every epoch's
  batches, rank 0 evaluates and writes, and all stop together.

Needs torch.
"""
from __future__ import annotations

import math
import os
import random
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch

from .errors import RSTKitError
from .models import TrainSettings
from .output import replacing_file
from .progress import Progress, showing

CHECKPOINT = "checkpoint.pt"


def seed_everything(seed: int) -> None:
    """Python's, numpy's and torch's random generators seeded with ``seed``."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def distributed() -> tuple[int, int]:
    """This process's rank and the number of processes (``torchrun``'s ``RANK`` and ``WORLD_SIZE``)."""
    return int(os.environ.get("RANK", "0")), int(os.environ.get("WORLD_SIZE", "1"))


def stderr_log(command: str) -> Callable[[str], None]:
    """The training's log: ``rstkit COMMAND: line`` on standard error, in the first process only and
    where progress is shown (:func:`rstkit.progress.shown`: the command line unless ``--quiet``; a
    library call shows none unless asked)."""
    def log(line: str) -> None:
        if showing() and distributed()[0] == 0:
            print(f"rstkit {command}: {line}", file=sys.stderr, flush=True)

    return log


class Trainee(ABC):
    """What :func:`fit` asks of a model being trained. Set ``model`` (the module whose parameters
    are trained and whose state the checkpoint keeps), ``optimizer`` and ``scheduler`` before
    calling it."""

    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    scheduler: torch.optim.lr_scheduler.LRScheduler
    #: when the schedule steps: after every optimizer step, or after every epoch
    schedule_per: Literal["step", "epoch"] = "step"
    #: gradients are clipped to this norm before each optimizer step
    clip: float = 5.0
    #: batches whose gradients make one optimizer step
    accumulate: int = 1
    #: mixed precision (AMP's gradient scaler; CUDA only)
    amp: bool = False
    #: whether dev scores select the model (False: no dev documents, every epoch's model replaces the last)
    selects: bool = True
    #: the last epoch trained, when earlier than the schedule's ``epochs`` (None: ``epochs``)
    stop_after: int | None = None

    @abstractmethod
    def batches(self, epoch: int) -> Sequence[Any]:
        """The batches of epoch ``epoch`` (1, 2, ...), in the order they are trained on."""

    @abstractmethod
    def loss(self, net: torch.nn.Module, batch: Any) -> tuple[torch.Tensor, int]:
        """The mean loss of ``batch`` under ``net`` (the model, or its DistributedDataParallel
        wrapper) and the number of items it averages (its weight in the epoch's loss)."""

    @abstractmethod
    def evaluate(self) -> tuple[dict[str, float], float]:
        """Dev scores (for the log and the history) and the number that selects the model (higher
        is better)."""

    @abstractmethod
    def describe(self, scores: dict[str, float]) -> str:
        """The dev scores as the log shows them."""

    @abstractmethod
    def keep_best(self, epoch: int, scores: dict[str, float]) -> None:
        """The model after ``epoch`` is the best so far: write it, or keep it to write at the end."""

    def kept(self) -> dict[str, Any]:
        """What the checkpoint holds for this trainee besides the model (none by default)."""
        return {}

    def restore(self, kept: dict[str, Any]) -> None:
        """Take back what :meth:`kept` gave, from a checkpoint (nothing by default)."""
        del kept


def fit(trainee: Trainee, settings: TrainSettings, out: Path, *, resume: bool = False,
        log: Callable[[str], None], device: torch.device | None = None) -> dict[str, Any]:
    """Train ``trainee`` for at most ``settings.epochs`` epochs (``trainee.stop_after``, when set, ends
    earlier with the schedule unchanged), stopping after ``settings.patience`` epochs without a better
    dev score; a trainee that does not select (``selects`` false: no dev documents) keeps every epoch's
    model in turn, so the last one stays. The checkpoint goes to ``out``. ``resume``: continue from it.
    The training state: ``epoch``, ``best``, ``best_epoch``, ``bad_epochs``, ``history`` (per epoch:
    ``epoch``, ``loss``, ``dev`` scores when selecting, ``seconds``) and ``stopped`` (``patience``,
    ``stop_after`` or ``epochs``)."""
    rank, world = distributed()
    device = device or torch.device("cpu")
    model = trainee.model
    scaler = torch.amp.GradScaler("cuda", enabled=trainee.amp)
    state: dict[str, Any] = {"epoch": 0, "best": -math.inf, "best_epoch": 0, "bad_epochs": 0, "history": []}
    if resume:
        state = load_checkpoint(out / CHECKPOINT, trainee, scaler)
        best = state["history"][state["best_epoch"] - 1].get("dev") if state["best_epoch"] else None
        log(f"resuming after epoch {state['epoch']}" + (f" (best: epoch {state['best_epoch']}, dev "
                                                         f"{trainee.describe(best)})" if best else ""))
    net = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
    last = trainee.stop_after or settings.epochs
    while state["epoch"] < last and state["bad_epochs"] < settings.patience:
        epoch = state["epoch"] + 1
        started = time.time()
        net.train()
        batches = trainee.batches(epoch)
        mine = batches[rank::world][:len(batches) // world] if world > 1 else batches
        total, count = 0.0, 0
        trainee.optimizer.zero_grad(set_to_none=True)
        with Progress(len(mine), f"epoch {epoch}", "batch", enabled=None if rank == 0 else False) as bar:
            for number, batch in enumerate(mine, 1):
                loss, weight = trainee.loss(net, batch)
                scaler.scale(loss / trainee.accumulate).backward()
                total += loss.detach().item() * weight
                count += weight
                if number % trainee.accumulate == 0 or number == len(mine):
                    scaler.unscale_(trainee.optimizer)
                    torch.nn.utils.clip_grad_norm_(model.parameters(), trainee.clip)
                    scaler.step(trainee.optimizer)
                    scaler.update()
                    if trainee.schedule_per == "step":
                        trainee.scheduler.step()
                    trainee.optimizer.zero_grad(set_to_none=True)
                bar.update()
        if trainee.schedule_per == "epoch":
            trainee.scheduler.step()
        state["epoch"] = epoch
        if rank == 0:
            loss_mean = total / max(1, count)
            record: dict[str, Any] = {"epoch": epoch, "loss": loss_mean}
            if trainee.selects:
                net.eval()
                scores, selection = trainee.evaluate()
                improved = selection > state["best"]
                record["dev"] = scores
                said = f"dev {trainee.describe(scores)}" + (" (best)" if improved else "")
            else:  # nothing to select by: this epoch's model replaces the last
                scores, selection, improved, said = {}, state["best"], True, "no dev"
            state["history"].append({**record, "seconds": round(time.time() - started, 1)})
            if improved:
                state.update(best=selection, best_epoch=epoch, bad_epochs=0)
                trainee.keep_best(epoch, scores)
            else:
                state["bad_epochs"] += 1
            save_checkpoint(out / CHECKPOINT, trainee, scaler, state)
            log(f"epoch {epoch}: loss {loss_mean:.4f}, {said}, {time.time() - started:.0f}s")
        if world > 1:
            _agree(state, device)
    state["stopped"] = ("patience" if state["bad_epochs"] >= settings.patience
                        else "stop_after" if state["epoch"] < settings.epochs else "epochs")
    return state


def _random_states() -> dict[str, Any]:
    states = {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        states["cuda"] = torch.cuda.get_rng_state_all()
    return states


def save_checkpoint(path: Path, trainee: Trainee, scaler: torch.amp.GradScaler, state: dict) -> None:
    """Everything :func:`load_checkpoint` needs to continue after this epoch, written whole or not at all."""
    with replacing_file(path) as stream:
        torch.save({"model": trainee.model.state_dict(), "optimizer": trainee.optimizer.state_dict(),
                    "scheduler": trainee.scheduler.state_dict(), "scaler": scaler.state_dict(), "state": state,
                    "rng": _random_states(), "trainee": trainee.kept()}, stream)


def load_checkpoint(path: Path, trainee: Trainee, scaler: torch.amp.GradScaler) -> dict:
    """The training state saved in ``path``, with the model, optimizer, schedule, scaler, random
    generators and what the trainee kept restored as they were."""
    if not path.is_file():
        raise RSTKitError(f"cannot resume: no {CHECKPOINT} here", str(path.parent))
    saved = torch.load(path, map_location="cpu", weights_only=False)
    try:
        trainee.model.load_state_dict(saved["model"])
        trainee.optimizer.load_state_dict(saved["optimizer"])
    except (RuntimeError, ValueError):
        raise RSTKitError("cannot resume: the checkpoint was trained with other settings or data "
                          "(vocabulary, relations or sizes differ)", str(path)) from None
    trainee.scheduler.load_state_dict(saved["scheduler"])
    scaler.load_state_dict(saved["scaler"])
    trainee.restore(saved.get("trainee", {}))
    rng = saved["rng"]
    random.setstate(rng["python"])
    np.random.set_state(rng["numpy"])
    torch.set_rng_state(rng["torch"])
    if "cuda" in rng and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(rng["cuda"])
    return saved["state"]


def init_distributed(device: torch.device, rank: int) -> torch.device:
    """Join ``torchrun``'s process group (NCCL on GPUs, gloo on CPUs); this process's device."""
    import torch.distributed as dist

    if device.type == "cuda":
        local = int(os.environ.get("LOCAL_RANK", rank))
        torch.cuda.set_device(local)
        device = torch.device("cuda", local)
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    return device


def leave_distributed() -> None:
    """Leave ``torchrun``'s process group once every process has reached this point. A process that
    closes its group while a peer is still using it can abort in gloo's teardown (seen once in CI: a
    SIGABRT after the last epoch), so all wait at a barrier first; the DDP wrapper's reducer, which
    holds the group, is collected before the group closes."""
    import gc

    import torch.distributed as dist

    gc.collect()
    dist.barrier()
    dist.destroy_process_group()


def _agree(state: dict, device: torch.device) -> None:
    """Broadcast rank 0's stop decision (and epoch bookkeeping) to all processes."""
    import torch.distributed as dist

    flags = torch.tensor([float(state["bad_epochs"]), float(state["epoch"])],
                         device=device if device.type == "cuda" else "cpu")
    dist.broadcast(flags, 0)
    state["bad_epochs"], state["epoch"] = int(flags[0]), int(flags[1])
