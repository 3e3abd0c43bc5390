"""Reading speed of the formats.

``test_read_gum_files``: all 281 GUM documents from GUM's own files, in each of its forms
(lisp_nary and lisp_binary ``.dis``, rstweb ``.rs4``, dependencies ``.rsd``), each read with the
package's reader and, for comparison in the same run, the way it was read before the fast
readers (the ``.dis`` grammar path; the previous rs3 and rsd readers kept in
benchmarks/baseline_readers.py). Targets: all ``.dis`` files in under 0.5 s; ``.rs4`` and ``.rsd``
at least 5x faster than before.

``test_read_all_gum_documents``: the 281 documents (right-binarized) rendered once in every
writable format by rstkit's writers (not timed), then read back with ``read_documents``.

Run: ``python -m pytest benchmarks/bench_formats.py`` (``RSTKIT_GUM`` points at a GUM
checkout, default ``../shared/corpora/gum``).
"""
from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from rstkit.corpus import read_documents
from rstkit.errors import RSTKitWarning, WriteError
from rstkit.formats import read_text
from rstkit.formats.dis import loads_dis, read_dis
from rstkit.formats.rs3 import read_rs3
from rstkit.formats.rsd import read_rsd
from rstkit.transform import binarize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import baseline_readers
from tests.support.format_files import RENDERABLE, render


def _dis_by_grammar(path: Path, lenient: bool) -> object:
    """The .dis grammar path alone (RST-DT's ``//TT_ERR`` mark sends every file to it)."""
    return loads_dis(read_text(path) + "\n//TT_ERR\n", path, lenient=lenient)


def _previous(loads: Callable) -> Callable:
    return lambda path, lenient: loads(read_text(path), path, lenient=lenient)


#: form -> (GUM directory, file pattern, reader)
GUM_FORMS: dict[str, tuple[str, str, Callable]] = {
    "dis lisp_nary": ("lisp_nary", "*.dis", read_dis),
    "dis lisp_nary, grammar path": ("lisp_nary", "*.dis", _dis_by_grammar),
    "dis lisp_binary": ("lisp_binary", "*.dis", read_dis),
    "dis lisp_binary, grammar path": ("lisp_binary", "*.dis", _dis_by_grammar),
    "rs4": ("rstweb", "*.rs4", read_rs3),
    "rs4, previous reader": ("rstweb", "*.rs4", _previous(baseline_readers.loads_rs3)),
    "rsd": ("dependencies", "*.rsd", read_rsd),
    "rsd, previous reader": ("dependencies", "*.rsd", _previous(baseline_readers.loads_rsd)),
}


@pytest.mark.parametrize("form", GUM_FORMS)
def test_read_gum_files(benchmark, gum_dir: Path, form: str) -> None:
    directory, pattern, read = GUM_FORMS[form]
    files = sorted((gum_dir / directory).glob(pattern))
    benchmark.group = f"GUM {directory}: all 281 files"

    def read_all() -> list:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RSTKitWarning)  # GUM's one bad extent, repaired leniently
            return [read(path, lenient=True) for path in files]

    documents = benchmark.pedantic(read_all, rounds=5, iterations=1, warmup_rounds=1)
    assert len(documents) == len(files) == 281


@pytest.fixture(scope="module")
def gum_binary(gum_nary) -> list:
    return [binarize(t, "right") for t in gum_nary.values()]


def _renders(key: str, tree: object, directory: Path) -> bool:
    """Whether format ``key`` can write ``tree``."""
    try:
        render(key, [tree], directory / tree.doc_id)  # type: ignore[attr-defined]
    except WriteError:
        return False
    return True


@pytest.mark.parametrize("key", RENDERABLE)
def test_read_all_gum_documents(benchmark, gum_binary: list, tmp_path: Path, key: str) -> None:
    if key == "isanlp":  # isanlp cannot write every tree (satellites named like their multinuc)
        pytest.skip("isanlp cannot express every GUM tree")
    writable = [t for t in gum_binary if _renders(key, t, tmp_path / "probe")]  # e.g. not "_" in BCS17's EDUs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)  # writers drop what a format cannot hold
        path, options = render(key, writable, tmp_path)
        documents = benchmark.pedantic(read_documents, args=(path, key), kwargs=options, rounds=3, iterations=1)
    assert len(documents) == len(writable) > 250  # BCS17 leaves out the 18 masked reddit documents and 3 with "_"
