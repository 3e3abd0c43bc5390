"""Running ``rstkit``'s command line in process, for tests that check its exit status and stderr."""
from __future__ import annotations

import warnings

from rstkit.cli import main


def run_main(argv: list[str], capsys) -> tuple[int, str]:
    """The exit status of ``rstkit ARGV`` and what it wrote to stderr (every warning shown)."""
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        status = main(argv)
    return status, capsys.readouterr().err
