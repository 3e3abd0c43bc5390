"""Running ``rstkit``'s command line for tests that check its exit status and stderr: in process, or
as a user file permissions apply to."""
from __future__ import annotations

import contextlib
import math
import os
import shutil
import subprocess
import warnings
from collections.abc import Iterator

from rstkit.cli import main
from rstkit.progress import Progress


def run_main(argv: list[str], capsys) -> tuple[int, str]:
    """The exit status of ``rstkit ARGV`` and what it wrote to stderr (every warning shown)."""
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        status = main(argv)
    return status, capsys.readouterr().err


@contextlib.contextmanager
def no_progress_lines() -> Iterator[None]:
    """Within the block no progress line is ever due. Off a terminal, a line is printed once work has
    taken 5 s, so whether stderr holds one depends on the machine's load: tests that compare the
    stderr of two runs compare it without them."""
    defaults = Progress.__init__.__kwdefaults__
    every = defaults["every"]
    defaults["every"] = math.inf
    try:
        yield
    finally:
        defaults["every"] = every


def without_privileges() -> list[str] | None:
    """A command prefix under which file permissions apply (root ignores them: the capabilities that
    skip permission checks dropped with setpriv), ``[]`` for a user without them, or None where it
    cannot be had."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        return None
    caps = "-dac_override,-dac_read_search"
    probe = subprocess.run(["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", "true"], check=False,
                           capture_output=True)
    return ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"] if probe.returncode == 0 else None


def run_main_out(argv: list[str], capsys, stdin: bytes | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """The exit status of ``rstkit ARGV``, its stdout and its stderr (every warning shown); ``stdin``
    (with ``monkeypatch``) is what standard input holds."""
    if stdin is not None:
        import io
        import sys

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err
