"""Reading speed of every parser format: all 281 GUM documents (right-binarized) per format.

Run: ``python -m pytest benchmarks/bench_formats.py`` (``RSTKIT_GUM`` points at a GUM
checkout, default ``../shared/corpora/gum``). The trees are written once with rstkit's
writers (not timed); the benchmark reads them back with ``read_documents``. Target: a
parser's whole output for a corpus the size of GUM (35k EDUs) reads in seconds.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

from rstkit.corpus import read_documents
from rstkit.errors import RSTKitWarning
from rstkit.transform import binarize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from format_files import RENDERABLE, render


@pytest.fixture(scope="module")
def gum_binary(gum_nary) -> list:
    return [binarize(t, "right") for t in gum_nary.values()]


@pytest.mark.parametrize("key", RENDERABLE)
def test_read_all_gum_documents(benchmark, gum_binary: list, tmp_path: Path, key: str) -> None:
    if key == "isanlp":  # isanlp cannot write every tree (satellites named like their multinuc)
        pytest.skip("isanlp cannot express every GUM tree")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)  # writers drop what a format cannot hold
        path, options = render(key, gum_binary, tmp_path)
        documents = benchmark.pedantic(read_documents, args=(path, key), kwargs=options, rounds=3, iterations=1)
    assert len(documents) == len(gum_binary)
