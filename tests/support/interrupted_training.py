"""Interrupting rstkit's one training loop (:mod:`rstkit.training`) at a known point, for the tests that
check that a resumed run ends exactly where an uninterrupted one does (the parser's and the segmenter's)."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from rstkit import training


@contextlib.contextmanager
def interrupted_after_epoch(monkeypatch, epoch: int) -> Iterator[None]:
    """Within the block, training raises KeyboardInterrupt right after saving epoch ``epoch``'s checkpoint
    (so the checkpoint is whole); the block expects that interruption. The loop saves normally again after."""
    saved = training.save_checkpoint

    def interrupt(path, trainee, scaler, state):
        saved(path, trainee, scaler, state)
        if state["epoch"] == epoch:
            raise KeyboardInterrupt

    monkeypatch.setattr(training, "save_checkpoint", interrupt)
    try:
        with pytest.raises(KeyboardInterrupt):
            yield
    finally:
        monkeypatch.setattr(training, "save_checkpoint", saved)
