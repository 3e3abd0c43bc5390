"""The default number of reading processes, and the collector pause around reading.

Expected values come from the rule in rstkit/corpus/files.py's docstrings: 1 process under 200
files or with 2 usable cores or fewer (a pool was slower on 2 cores at every size measured,
benchmarks/README.md), else every usable core; an explicit ``jobs`` is taken as given.
"""
from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

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


class _Cyclic:
    """A container that can be weakly referenced, to see when the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def _in_generation(generation: int, objects: list[object]) -> set[int]:
    """The ids among ``objects`` that the collector holds in ``generation``."""
    ids = {id(o) for o in objects}
    return {id(o) for o in gc.get_objects(generation) if id(o) in ids}


def test_what_was_built_during_the_pause_goes_to_the_oldest_generation_and_is_still_collected():
    import weakref

    was = gc.isenabled()
    try:
        gc.enable()
        with no_cyclic_gc():
            built = [[i] for i in range(1_000)]  # tracked containers, born in the youngest generation
            garbage = _Cyclic()
            freed = weakref.ref(garbage)
            del garbage  # a cycle: only the collector frees it
        assert _in_generation(2, built) == {id(o) for o in built} and not _in_generation(0, built)
        assert freed() is not None
        gc.collect()
        assert freed() is None  # moved, not kept alive
    finally:
        (gc.enable if was else gc.disable)()


def test_objects_the_program_froze_stay_frozen_and_then_nothing_is_moved():
    was = gc.isenabled()
    gc.collect()
    try:
        gc.enable()
        gc.freeze()
        frozen = gc.get_freeze_count()
        with no_cyclic_gc():
            built = [[i] for i in range(1_000)]
        assert gc.get_freeze_count() == frozen
        assert not _in_generation(2, built)  # left where the collector put them
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()


def _doc_id(tree):
    return tree.doc_id


def _same(tree):
    return tree


def test_worker_result_is_the_one_name_and_send_back_an_error():
    """``send_back`` (0.1.0's name of ``worker_result``, never released) is an option no reader takes."""
    from rstkit.corpus import open_corpus, read_documents

    files = sorted(Path("corpora/sample/gold").glob("*.dis"))
    assert read_files(files, jobs=2, worker_result=_doc_id) == [[f.name[:-4]] for f in files]
    assert read_documents("corpora/sample/gold", jobs=2, worker_result=_same) == read_documents("corpora/sample/gold")
    with pytest.raises(RSTKitError, match="format 'dis' takes no option send_back"):
        read_documents("corpora/sample/gold", jobs=2, send_back=_same)
    with pytest.raises(RSTKitError, match="format 'dis' takes no option send_back"):
        open_corpus("corpora/sample/gold").documents(send_back=_same)  # the readers' options pass through


def test_reading_with_several_processes_reports_progress_per_file(monkeypatch):
    """Progress (shown by the command line on stderr) counts every file whatever ``jobs`` is."""
    import rstkit.corpus.files as files_module

    counted = []

    class Recording:
        def __init__(self, total, what, unit="item", **_):
            counted.append([total, 0])

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def update(self, n: int = 1) -> None:
            counted[-1][1] += n

    monkeypatch.setattr(files_module, "Progress", Recording)
    paths = sorted(Path("corpora/sample/gold").glob("*.dis"))
    for jobs in (1, 2):
        outcomes = files_module.read_files(paths, jobs=jobs, single=True)
        assert len(outcomes) == len(paths)
    assert counted == [[len(paths), len(paths)]] * 2


_WITH_TBLIB = """
import sys
from rstkit.corpus import read_documents
from rstkit.errors import ManyErrors
import tblib.pickling_support
tblib.pickling_support.install()  # what importing distributed does: the exception classes known by now
                                  # pickle their context too
try:
    read_documents(sys.argv[1], jobs=2)
except ManyErrors as exc:
    print([(type(e).__name__, e.path.rsplit('/', 1)[-1], e.line) for e in exc.errors])
"""


def test_reading_errors_cross_processes_once_distributed_is_imported(tmp_path):
    """A malformed .dis file's error is raised while lark's exception is handled; lark's holds the ``re``
    module. Once tblib's pickling support is installed (``import distributed`` does it), pickling an error
    pickled that context too and failed ("cannot pickle 'module' object") in the worker: the error leaves
    the worker without it. In a fresh interpreter, so that the test process's pickling stays as it is."""
    pytest.importorskip("tblib")
    for path in sorted(Path("corpora/sample/gold").glob("*.dis")):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "sample_a.dis").write_text("( Root (span 1 2)\n", encoding="utf-8")
    (tmp_path / "sample_c.dis").write_text("not a tree\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _WITH_TBLIB, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, check=False, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[('FormatError', 'sample_a.dis', 1), ('FormatError', 'sample_c.dis', 1)]"
