"""rstkit leaves its host's garbage collector as it found it (issue 25): a library call never
pauses it unless the caller allowed that; the command line pauses it around its bulk work; and
enabled/disabled, thresholds and frozen objects are the same after every call as before."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

import rstkit
from rstkit.corpus.files import read_files
from rstkit.gcpause import gc_pauses_allowed, no_cyclic_gc
from rstkit.metrics import EvalConfig
from rstkit.metrics.pipeline import evaluate_all
from tests.support.cli_run import run_main

SAMPLE = Path("corpora/sample")
GOLD, PRED = SAMPLE / "gold", SAMPLE / "pred"


def _state() -> tuple[bool, tuple[int, int, int], bool]:
    """Enabled or not, thresholds, and whether any objects are frozen (their number may fall as
    frozen objects are freed, so which are frozen is checked with :func:`_still_frozen`)."""
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count() > 0


def _still_frozen(sentinel: object) -> bool:
    """``sentinel`` is in no generation the collector walks: it is still frozen."""
    return all(all(o is not sentinel for o in gc.get_objects(g)) for g in range(3))


def _library_calls():
    """Each library entry point that reads or scores many trees."""
    files = sorted(GOLD.glob("*.dis"))
    gold = {tree.doc_id: tree for outcome in read_files(files, jobs=1) for tree in outcome}
    pred = {tree.doc_id: tree for outcome in read_files(sorted(PRED.glob("*.dis")), jobs=1) for tree in outcome}
    return {
        "read_files": lambda: read_files(files, jobs=1),
        "rstkit.evaluate": lambda: rstkit.evaluate(str(GOLD), str(PRED)),
        "metrics.score_documents": lambda: rstkit.metrics.score_documents(gold, pred, EvalConfig(metric="parseval")),
        "evaluate_all": lambda: evaluate_all(gold, pred, [EvalConfig(metric="rst-parseval"),
                                                          EvalConfig(metric="parseval")]),
    }


@pytest.fixture
def host_gc():
    """A host with its own collector settings (restored afterwards for the other tests)."""
    before = _state()
    gc.collect()
    yield
    gc.unfreeze()
    gc.set_threshold(*before[1])
    (gc.enable if before[0] else gc.disable)()


@pytest.mark.filterwarnings("ignore::rstkit.errors.RSTKitWarning")  # sample_note has one EDU
@pytest.mark.parametrize("name", list(_library_calls()))
@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("frozen", [True, False])
def test_a_library_call_leaves_the_collector_as_it_was(name, enabled, frozen, host_gc, monkeypatch):
    calls = _library_calls()
    gc.set_threshold(1234, 7, 3)
    sentinel = [[]]
    if frozen:
        gc.freeze()
    (gc.enable if enabled else gc.disable)()
    before = _state()
    paused = []
    real_disable = gc.disable
    monkeypatch.setattr(gc, "disable", lambda: (paused.append(True), real_disable())[1])
    calls[name]()
    assert _state() == before
    assert _still_frozen(sentinel) == frozen
    assert paused == []  # not even paused for a while: the host did not allow it


@pytest.mark.parametrize("enabled", [True, False])
def test_allowed_pauses_pause_and_restore(enabled, host_gc, monkeypatch):
    gc.set_threshold(999, 5, 5)
    (gc.enable if enabled else gc.disable)()
    before = _state()
    seen = []
    real_disable = gc.disable
    monkeypatch.setattr(gc, "disable", lambda: (seen.append(True), real_disable())[1])
    with gc_pauses_allowed():
        read_files(sorted(GOLD.glob("*.dis")), jobs=1)
    assert seen  # the collector was paused during the reading
    assert _state() == before


def test_the_command_line_pauses_its_bulk_work_and_restores(host_gc, monkeypatch, capsys):
    gc.set_threshold(777, 3, 2)
    gc.enable()
    before = _state()
    paused = []
    real_disable = gc.disable
    monkeypatch.setattr(gc, "disable", lambda: (paused.append(True), real_disable())[1])
    status, _ = run_main(["eval", str(GOLD), str(PRED), "--metric", "parseval"], capsys)
    assert status == 0
    assert paused  # the command's reading and scoring ran with the collector paused
    assert _state() == before


def test_an_explicit_pause_restores_thresholds_and_frozen_objects(host_gc):
    gc.set_threshold(555, 4, 4)
    sentinel = [[]]
    gc.freeze()
    before = _state()
    with no_cyclic_gc():
        assert not gc.isenabled()
    assert _state() == before and _still_frozen(sentinel)
