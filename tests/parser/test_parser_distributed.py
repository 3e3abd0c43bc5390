"""DistributedDataParallel training under torchrun: two CPU processes, gloo backend."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from rstkit.parser.modeldir import read_config

TINY = {"model": {"hidden": 16, "span_dim": 16, "mlp_dim": 16}, "encoder": {"embedding_dim": 16, "hidden": 16}}


@pytest.mark.slow  # training in two torchrun processes
@pytest.mark.gum
def test_torchrun_two_cpu_processes(gum_dir, tmp_path):
    out = tmp_path / "model"
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
               "-m", "rstkit", "train", "--corpus", str(gum_dir), "--out", str(out), "--epochs", "2",
               "--max-docs", "4", "--max-dev-docs", "1", "--batch-docs", "1", "--device", "cpu",
               "--threads", "1", "--options", json.dumps(TINY)]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, check=False, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 processes" in done.stderr
    assert done.stdout.count("best dev parseval-micro-F") == 1  # only rank 0 reports
    assert "epoch 2:" in done.stderr
    assert read_config(out)["info"]["train_documents"] == 4
