"""Issue 36 ("no silent waits"): ``-v`` ends with the time the command took in all, start-up
included: counted from when ``rstkit.__main__`` (the ``rstkit`` command's entry point) was imported,
before the command line and the subcommand's libraries are."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def test_verbose_total_counts_from_start_up():
    # a second's wait between importing the entry point and running it stands for a slow start-up
    script = ("import sys, time\nimport rstkit.__main__ as entry\ntime.sleep(1.0)\n"
              "sys.argv = ['rstkit', 'stats', 'corpora/sample/gold', '-v']\nsys.exit(entry.main())\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    last = done.stderr.splitlines()[-1]
    match = re.fullmatch(r"rstkit: stats: exit status 0, ([0-9.]+)s of CPU in the command, ([0-9.]+)s in all "
                         r"\(start-up included\)", last)
    assert match, last
    assert float(match.group(2)) >= 1.0  # the wait before main() is counted
