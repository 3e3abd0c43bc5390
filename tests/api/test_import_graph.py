"""rstkit's imports follow the layering of docs/architecture.md, so import circles cannot come back.

The layers are read from the fenced ``layers`` block of docs/architecture.md (the document is
the specification); the imports from rstkit's source with ``ast``, function-level and
``TYPE_CHECKING`` imports included. A *unit* is a top-level module or package of rstkit
(``rstkit.metrics.counts`` belongs to ``metrics``); imports within a unit are free.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1].parent
PACKAGE = PROJECT / "rstkit"
FACADE = "rstkit"  # rstkit/__init__.py: may import every unit but cli; no unit may import it


def layers() -> list[list[str]]:
    """The units of each layer, lowest first, from docs/architecture.md."""
    text = (PROJECT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"```layers\n(.*?)```", text, re.DOTALL)
    assert block, "docs/architecture.md has no ```layers block"
    return [line.split() for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """``(line, module)`` of every rstkit module ``name`` imports; ``from X import Y`` counts as
    importing ``X.Y`` when that is a module, else ``X``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "rstkit"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "rstkit":
                found += [(node.lineno, f"{target}.{a.name}" if f"{target}.{a.name}" in known else target)
                          for a in node.names]
    return found


def unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else FACADE


def test_the_layers_name_each_unit_once():
    units = [u for layer in layers() for u in layer]
    assert len(units) == len(set(units)), "a unit is in two layers"


def test_every_unit_is_in_a_layer():
    placed = {u for layer in layers() for u in layer}
    missing = sorted({unit(m) for m in modules()} - placed - {FACADE})
    assert not missing, f"units missing from docs/architecture.md's layers: {missing}"


def violations(mods: dict[str, Path]) -> list[str]:
    rank = {u: i for i, layer in enumerate(layers()) for u in layer}
    known = set(mods)
    found = []
    for name, path in mods.items():
        mine = unit(name)
        for line, target in imports(name, path, known):
            theirs = unit(target)
            where = f"{name}:{line} imports {target}"
            if theirs == mine:
                continue
            if theirs == FACADE:
                found.append(f"{where}: nothing imports the package facade (import the submodule)")
            elif mine == FACADE:
                if theirs == "cli":
                    found.append(f"{where}: the facade does not import the command line")
            elif rank[theirs] >= rank[mine]:
                found.append(f"{where}: {mine} (layer {rank[mine]}) may import only lower layers, "
                             f"not {theirs} (layer {rank[theirs]})")
    return found


def test_imports_point_down_the_layers():
    assert violations(modules()) == []


def test_the_check_rejects_what_was_there_before(tmp_path):
    """The imports this layering removed (tree.py reaching up into draw/ in a method, a formats
    module importing corpus, a module importing the package facade) are found and rejected."""
    tree = tmp_path / "tree.py"
    tree.write_text("class T:\n    def _repr_svg_(self):\n        from .draw import to_svg\n", encoding="utf-8")
    reader = tmp_path / "braud_eacl.py"
    reader.write_text("from ..corpus import rstdt_test_ids\nfrom .. import __version__\n", encoding="utf-8")
    mods = {**modules(), "rstkit.tree": tree, "rstkit.formats.braud_eacl": reader}
    assert imports("rstkit.tree", tree, set(mods)) == [(3, "rstkit.draw")]
    found = violations(mods)
    assert len(found) == 3
    assert found[0].startswith("rstkit.formats.braud_eacl:1 imports rstkit.corpus: formats (layer")
    assert found[1].startswith("rstkit.formats.braud_eacl:2 imports rstkit: nothing imports the package facade")
    assert found[2].startswith("rstkit.tree:3 imports rstkit.draw: tree (layer")


@pytest.mark.parametrize("name, allowed", [("rstkit.tree", {"errors"}), ("rstkit.errors", set()),
                                           ("rstkit.settings", set()), ("rstkit.tables", set())])
def test_the_foundations_import_almost_nothing(name, allowed):
    mods = modules()
    assert {unit(target) for _, target in imports(name, mods[name], set(mods))} <= allowed
