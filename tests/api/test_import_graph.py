"""rstkit's imports follow the layering of docs/architecture.md, so import circles cannot come back.

The layers are read from the fenced ``layers`` block of docs/architecture.md (the document is
the specification); the imports from rstkit's source with ``ast``, function-level and
``TYPE_CHECKING`` imports included. A *unit* is a top-level module or package of rstkit
(``rstkit.metrics.counts`` belongs to ``metrics``); between units, imports point down the layers.

Inside a unit, modules import each other freely but never in a circle: the graph of what runs
(module-level and call-time imports, a function's ``from .registry import FAMILIES`` being how a
circle hides) has no cycle. Type-only imports (under ``if TYPE_CHECKING:``) never run and are left
out of that graph: two types that name each other are not an import circle. Modules that load
plugins by a computed name (``import_module(f"{__name__}.{name}")``: the format registry, the
command line's subcommands) are outside both checks; the module doing it is complete before it
loads one.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
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


def type_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements of ``tree`` under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    guarded = [node for node in ast.walk(tree) if isinstance(node, ast.If)
               and (getattr(node.test, "id", None) or getattr(node.test, "attr", None)) == "TYPE_CHECKING"]
    return {inner for node in guarded for statement in node.body for inner in ast.walk(statement)
            if isinstance(inner, (ast.Import, ast.ImportFrom))}


def imports(name: str, path: Path, known: set[str], typing: bool = True) -> list[tuple[int, str]]:
    """``(line, module)`` of every rstkit module ``name`` imports (``typing=False``: but those under
    ``if TYPE_CHECKING:``); ``from X import Y`` counts as importing ``X.Y`` when that is a module, else ``X``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set() if typing else type_only(tree)
    for node in ast.walk(tree):
        if node in skipped:
            continue
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


#: The modules that import a module whose name they compute (outside both checks): the facade's lazy
#: names, the format registry's and the command line's own plugins (formats.dis imports formats, which
#: loads it at first use), and a user's encoder module.
COMPUTED_IMPORTS = {"rstkit", "rstkit.formats", "rstkit.cli", "rstkit.probe.encoders"}


def test_every_import_by_a_computed_name_is_known():
    found = set()
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and "import_module" in (getattr(node.func, "id", None),
                                                                   getattr(node.func, "attr", None))
                    and not (node.args and isinstance(node.args[0], ast.Constant))):
                found.add(name)
    assert found == COMPUTED_IMPORTS


def runtime_graph(mods: dict[str, Path]) -> nx.DiGraph:
    """Module -> imported module, for the imports that run (module-level and call-time), each arrow
    with the line of its first import."""
    known = set(mods)
    graph = nx.DiGraph()
    for name, path in mods.items():
        for line, target in imports(name, path, known, typing=False):
            while target not in known and "." in target:  # ``from .x import name`` of a module rstkit lacks
                target = target.rpartition(".")[0]
            if target != name and not graph.has_edge(name, target):
                graph.add_edge(name, target, line=line)
    return graph


def circles(mods: dict[str, Path]) -> dict[frozenset[str], str]:
    """Each import circle (the modules that reach each other through imports), with one cycle
    through it spelled ``a:LINE -> b:LINE -> a``."""
    graph = runtime_graph(mods)
    found = {}
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            cycle = nx.find_cycle(graph.subgraph(component))
            found[frozenset(component)] = " -> ".join(
                [f"{a}:{graph.edges[a, b]['line']}" for a, b in cycle] + [cycle[0][0]])
    return found


def test_no_import_circle_inside_a_package():
    found = circles(modules())
    assert list(found.values()) == [], "import circles (break one arrow of each)"


def test_the_circle_check_sees_imports_inside_functions_and_not_type_only_ones(tmp_path):
    """A circle closed by a function's import is found, with its lines; two modules whose only
    imports of each other are type-only are not a circle."""
    files = {"rstkit.metrics.knob": "from .dial import Dial\n",
             "rstkit.metrics.dial": "class Dial:\n    def turn(self):\n        from .knob import knob\n",
             "rstkit.metrics.left": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .right import R\n",
             "rstkit.metrics.right": "import typing\nif typing.TYPE_CHECKING:\n    from .left import L\n"}
    mods = {}
    for name, text in files.items():
        mods[name] = tmp_path / f"{name.rpartition('.')[2]}.py"
        mods[name].write_text(text, encoding="utf-8")
    assert circles(mods) == {frozenset({"rstkit.metrics.knob", "rstkit.metrics.dial"}):
                             "rstkit.metrics.knob:1 -> rstkit.metrics.dial:3 -> rstkit.metrics.knob"}
    assert circles({**modules(), **mods}).keys() == {
        frozenset({"rstkit.metrics.knob", "rstkit.metrics.dial"})}
