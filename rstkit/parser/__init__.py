"""rstkit's own shift-reduce RST parser (optional extra ``parser``: torch, transformers).

* :class:`Parser` (:mod:`.api`): ``Parser.load(name_or_path)``, ``parser.parse(docs)``,
  ``Parser.train(train, dev, config)``; :class:`TrainConfig` (:mod:`.config`) its settings
* :mod:`.transition` the transition system and static oracle (pure Python)
* :mod:`.features` sentence/paragraph boundary features of states (pure Python; the
  boundaries themselves: :mod:`rstkit.boundaries`)
* :mod:`.inputs` documents to parse and where their boundaries come from (pure Python)
* :mod:`.encoders` EDU encoders: ``scratch`` (word embeddings + BiLSTM), pretrained
  transformers (:mod:`rstkit.pretrained` token states, :mod:`.pooling` per EDU), both
* :mod:`.model` the scorer of states, :mod:`.ensemble` averaged members,
  :mod:`.decode` greedy/beam decoding, :mod:`.train` training, :mod:`.modeldir` model directories

torch is imported only by the modules that need it, so importing this package is cheap.
"""
from __future__ import annotations

from typing import Any

__all__ = ["Parser", "TrainConfig"]


def __getattr__(name: str) -> Any:
    if name == "Parser":
        from .api import Parser

        return Parser
    if name == "TrainConfig":
        from .config import TrainConfig

        return TrainConfig
    raise AttributeError(name)
