"""A tiny untrained segmenter saved as a model folder, for tests of the command line's plumbing (which
does not depend on the model's quality). Needs torch: import it after ``pytest.importorskip("torch")``."""
from __future__ import annotations

from pathlib import Path

import torch

from rstkit.segment.features import FLAGS
from rstkit.segment.model import NetConfig, SegmenterNet
from rstkit.segment.segmenter import Segmenter
from rstkit.vocabulary import Vocabulary


def save_tiny_segmenter(directory: Path) -> str:
    """Save the model into ``directory`` and return its path."""
    torch.manual_seed(0)
    words, chars = Vocabulary(["the", "."]), Vocabulary(list("abcdefghijklmnopqrstuvwxyz."))
    net = SegmenterNet(NetConfig(words=len(words), chars=len(chars), flags=len(FLAGS), word_dim=4, char_dim=4,
                                 char_filters=4, hidden=4, layers=1))
    Segmenter(net, words, chars, {"threshold": 0.5}).save(directory)
    return str(directory)
