"""Files shipped with rstkit (label tables, published scores, models, split lists), and the
document lists of RST-DT's standard splits. Imports nothing from rstkit."""
from __future__ import annotations

from importlib import resources


def _manifest(name: str) -> list[str]:
    text = resources.files(__name__).joinpath("splits", name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def rstdt_test_ids() -> list[str]:
    """The 38 documents of RST-DT's TEST directory."""
    return _manifest("rstdt_test.txt")


def rstdt_dev_ids() -> list[str]:
    """The 35 TRAINING documents used as a validation set by several parsers and DiscoEval."""
    return _manifest("rstdt_dev.txt")
