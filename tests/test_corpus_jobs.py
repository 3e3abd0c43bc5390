"""The default number of reading processes, and the collector pause around reading.

Expected values come from the rule in rstkit/corpus/files.py's docstrings: 1 process under 200
files or with 2 usable cores or fewer (a pool was slower on 2 cores at every size measured,
benchmarks/README.md), else every usable core; an explicit ``jobs`` is taken as given.
"""
from __future__ import annotations

import gc

import pytest

from rstkit.corpus import files
from rstkit.corpus.files import read_files, resolve_jobs
from rstkit.errors import RSTKitError
from rstkit.gcpause import no_cyclic_gc


@pytest.mark.parametrize("cores, n_files, expected", [
    (2, 10_000, 1), (1, 500, 1), (8, 199, 1), (8, 200, 8), (4, 5_000, 4),
])
def test_default_jobs(monkeypatch, cores, n_files, expected):
    monkeypatch.setattr(files, "usable_cores", lambda: cores)
    assert resolve_jobs(None, n_files) == expected


def test_explicit_jobs_are_taken_as_given(monkeypatch):
    monkeypatch.setattr(files, "usable_cores", lambda: 2)
    assert resolve_jobs(3, 5) == 3
    with pytest.raises(RSTKitError, match="jobs must be an integer >= 1"):
        resolve_jobs(0, 5)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_reading_and_restored(enabled, tmp_path):
    seen = []
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with no_cyclic_gc():
            seen.append(gc.isenabled())
        assert gc.isenabled() == enabled
        with pytest.raises(ZeroDivisionError), no_cyclic_gc():
            1 / 0  # noqa: B018
        assert gc.isenabled() == enabled
        outcome = read_files([tmp_path / "missing.dis"], jobs=1)
        assert isinstance(outcome[0], RSTKitError) and gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False]
