"""``rstkit parse --engine dask``: a local cluster of worker processes gives the files a local
run gives, byte for byte; a killed run resumes; a lost worker's batches run again; a failing
document is reported. The expected files are always those of ``rstkit parse`` without the
engine on the same input (a separate run, in this process)."""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("tqdm")
distributed = pytest.importorskip("distributed")

from rstkit import cluster
from rstkit.cli import main
from rstkit.corpus import gum_corpus
from rstkit.formats import get_format
from rstkit.parser import api
from rstkit.parser.distributed import parse_on_dask, plan_batches
from rstkit.parser.inputs import read_parse_inputs
from tests.support.cli_run import run_main

pytestmark = [pytest.mark.gum, pytest.mark.slow]


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too: a leftover would show)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def test_docs(gum_dir, tmp_path_factory) -> Path:
    """The first 8 GUM test documents as .rsd files (EDUs with sentence and paragraph boundaries)."""
    folder = tmp_path_factory.mktemp("in")
    for doc_id in sorted(gum_corpus(gum_dir).doc_ids("test"))[:8]:
        shutil.copy(gum_dir / "dependencies" / f"{doc_id}.rsd", folder)
    return folder


@pytest.fixture(scope="module")
def local(test_docs, tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("local") / "out"
    assert main(["parse", str(test_docs), str(out), "--model", "scratch", "--jobs", "1", "-q"]) == 0
    return files(out)


def test_the_gum_test_split_on_two_workers_gives_the_local_files(gum_dir, tmp_path):
    """The issue's check: the whole GUM test split, the scratch model, two local workers."""
    local_out, dask_out = tmp_path / "local", tmp_path / "dask"
    assert main(["parse", str(gum_dir), str(local_out), "--split", "test", "--model", "scratch", "-q"]) == 0
    assert main(["parse", str(gum_dir), str(dask_out), "--split", "test", "--model", "scratch", "-q",
                 "--engine", "dask", "--workers", "2"]) == 0
    expected = files(local_out)
    assert len(expected) == 32 and files(dask_out) == expected


def test_a_killed_run_resumes_to_the_same_files(test_docs, local, tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "rstkit", "parse", str(test_docs), str(out), "--model", "scratch",
               "--engine", "dask", "--workers", "2", "--batch-size", "1", "-q"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    run = subprocess.Popen(command, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None and len(list(out.glob("*.dis"))) < 2:
        time.sleep(0.2)
    assert run.poll() is None, "the run ended before it could be killed: " + run.stderr.read().decode()[-2000:]
    os.killpg(run.pid, signal.SIGKILL)  # the client and its cluster, all at once
    run.wait()
    partial = {name: data for name, data in files(out).items() if name.endswith(".dis")}
    assert 2 <= len(partial) < len(local)
    assert all(local[name] == data for name, data in partial.items())  # what was written is complete
    assert main(["parse", str(test_docs), str(out), "--model", "scratch", "--engine", "dask", "--workers", "2",
                 "--batch-size", "1", "--resume", "-q"]) == 0
    assert files(out) == local  # and no staging folder left


def test_without_resume_existing_outputs_are_refused(test_docs, local, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    first = min(local)
    (out / first).write_bytes(local[first])
    status, err = run_main(["parse", str(test_docs), str(out), "--model", "scratch", "--engine", "dask",
                            "--workers", "1"], capsys)
    assert status == 2 and first in err and "--force" in err


def test_a_lost_worker_batches_run_again(test_docs, local):
    """One of two worker processes is killed after the first batch: Dask runs its batches on the
    other (or on the one the nanny restarts), and every tree is the local run's."""
    docs = read_parse_inputs(test_docs)
    killed = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as lc, distributed.Client(lc) as client:
        pids = client.run(os.getpid)

        def kill_one(_outcomes):
            if not killed:
                pid = min(pids.values())
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        trees = parse_on_dask(client, docs, "scratch", batch_size=1, done=kill_one)
    assert killed
    write = get_format("dis").write
    got = {f"{doc.doc_id}.dis": write(replace(tree, source=doc.path)).encode() for doc, tree in zip(docs, trees)}
    assert got == local


@contextlib.contextmanager
def in_process_cluster(scheduler=None, workers=None):
    """A cluster of threads in this process: a patched parser reaches the workers."""
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        yield client


def test_a_failing_document_is_listed_and_the_rest_written(test_docs, local, tmp_path, capsys, monkeypatch):
    bad = sorted(local)[3].removesuffix(".dis")
    parse = api.Parser.parse

    def failing(self, documents, **kwargs):
        documents = list(documents)
        if any(getattr(d, "doc_id", None) == bad for d in documents):
            raise RuntimeError("out of memory (simulated)")
        return parse(self, documents, **kwargs)

    monkeypatch.setattr(api.Parser, "parse", failing)
    monkeypatch.setattr(cluster, "connect", in_process_cluster)
    out = tmp_path / "out"
    status, err = run_main(["parse", str(test_docs), str(out), "--model", "scratch", "--engine", "dask",
                            "--skip-errors"], capsys)
    assert status == 0
    assert f"document {bad!r} ({test_docs / (bad + '.rsd')}) was left out: RuntimeError: out of memory" in err
    assert "7 document(s) done on Dask" in err and "1 failed (listed above)" in err
    expected = {name: data for name, data in local.items() if name != f"{bad}.dis"}
    got = files(out)
    assert got.keys() == expected.keys()
    # the failing document's batch-mates were parsed alone: same trees here (scratch decodes each alone
    # the same way); the other batches are byte-identical to the local run
    assert got == expected

    status, err = run_main(["parse", str(test_docs), str(tmp_path / "strict"), "--model", "scratch",
                            "--engine", "dask"], capsys)
    assert status == 2 and "--skip-errors" in err
    assert f"document {bad!r} ({test_docs / (bad + '.rsd')}) failed: RuntimeError: out of memory" in err


@pytest.mark.parametrize("flags, message", [
    (["--workers", "2"], "--workers needs --engine dask"),
    (["--resume"], "--resume needs --engine dask"),
    (["--skip-errors"], "--skip-errors needs --engine dask"),
    (["--engine", "dask", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
])
def test_cluster_options_are_checked_before_any_work(test_docs, tmp_path, capsys, flags, message):
    status, err = run_main(["parse", str(test_docs), str(tmp_path / "out"), "--model", "scratch", *flags], capsys)
    assert status == 2 and message in err and not (tmp_path / "out").exists()


def test_without_dask_the_error_names_the_extra(test_docs, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    status, err = run_main(["parse", str(test_docs), str(tmp_path / "out"), "--model", "scratch", "--engine",
                            "dask"], capsys)
    assert status == 2 and "pip install 'rstkit[dask]'" in err


def test_batches_are_those_of_a_local_run():
    # decode sorts by number of EDUs (stable) and cuts batch_docs at a time: worked by hand
    assert plan_batches([5, 2, 9, 2, 7], 2) == [[1, 3], [0, 4], [2]]
