"""The public API in one place: ``import rstkit`` (light, no torch), its names, the version, notebook display."""
from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import rstkit
from rstkit.formats.dis import loads_dis
from rstkit.tree import EDU, ROOT, RSTTree, internal, leaf
from tests.support.public import public_names

PROJECT = Path(__file__).resolve().parents[1].parent

TREE = loads_dis("( Root (span 1 3)\n"
                 "  ( Nucleus (leaf 1) (rel2par span) (text _!Prices fell._!) )\n"
                 "  ( Satellite (span 2 3) (rel2par elaboration)\n"
                 "    ( Nucleus (leaf 2) (rel2par list) (text _!Oil rose._!) )\n"
                 "    ( Nucleus (leaf 3) (rel2par list) (text _!Gold held._!) ) ) )\n", doc_id="d")


def test_import_rstkit_imports_no_optional_extra():
    code = ("import sys, rstkit; heavy = ('torch', 'sklearn', 'transformers', 'networkx'); "
            "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT)
    assert out.stdout.strip() == "[]"


def test_the_public_names_are_there():
    for name, value in public_names().items():
        assert value is not None, name
    for name in ("read_tree", "read_documents", "open_corpus", "resolve_corpus", "binarize", "EvalConfig",
                 "evaluate", "audit_published", "draw", "loads", "dumps", "to_dependencies", "Parser", "Segmenter"):
        assert name in rstkit.__all__
    assert rstkit.binarize is __import__("rstkit.transform", fromlist=["binarize"]).binarize
    assert "Parser" in dir(rstkit) and "Segmenter" in dir(rstkit)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        rstkit.no_such_name  # noqa: B018


def test_lazy_names_are_the_submodules_objects():
    from rstkit.dependency import to_dependencies
    from rstkit.formats import loads

    assert rstkit.to_dependencies is to_dependencies and rstkit.loads is loads


def test_version_in_one_place():
    """pyproject.toml reads the version from rstkit/_version.py; the installed metadata agrees."""
    pyproject = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "rstkit._version.__version__" }' in pyproject
    assert not re.search(r'^version\s*=\s*"', pyproject, re.MULTILINE)  # no second, literal version
    assert rstkit.__version__ == metadata.version("rstkit")


def test_str_is_one_bracketed_line():
    """Written by hand from the tree above: leaves as (nuclearity:relation EDU), the rest with their span."""
    assert str(TREE) == "(Root 1-3 (N:span 1) (S:elaboration 2-3 (N:list 2) (N:list 3)))"
    one = RSTTree(leaf(1, ROOT, None), (EDU(1, "Hello."),), "one")
    assert str(one) == "(Root 1)"


def test_str_of_a_deep_tree():
    n = 5000
    node = leaf(n, "N", "list")
    for i in range(n - 1, 0, -1):
        node = internal("N" if i > 1 else ROOT, "list" if i > 1 else None, (leaf(i, "N", "list"), node))
    tree = RSTTree(node, tuple(EDU(i, f"e{i}") for i in range(1, n + 1)))
    text = str(tree)
    assert text.startswith("(Root 1-5000 (N:list 1) (N:list 2-5000 (N:list 2)") and text.count("(") == 2 * n - 1


def test_a_tree_shows_itself_as_a_diagram():
    assert TREE._repr_svg_().startswith("<svg") and "<svg" in TREE._repr_html_()


def test_ipython_displays_a_tree_as_svg():
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell

    data, _ = InteractiveShell.instance().display_formatter.format(TREE)
    assert data["image/svg+xml"].startswith("<svg") and "Prices fell." in data["image/svg+xml"]


def test_nodes_and_edus_are_frozen_dataclasses_with_their_fields():
    """Node and EDU set their fields through their slots (tree.py): the dataclass contract holds."""
    import dataclasses

    from rstkit.tree import Node

    node = Node(1, 1, "N", "span")
    fields = (node.start, node.end, node.nuclearity, node.relation, node.children, node.line)
    assert fields == (1, 1, "N", "span", (), None)
    assert Node(start=2, end=2, nuclearity="S", relation="cause", line=7).line == 7
    moved = dataclasses.replace(node, start=3, end=3, line=9)
    assert (moved.start, moved.end, moved.relation, moved.line) == (3, 3, "span", 9)
    assert [f.name for f in dataclasses.fields(Node)] == ["start", "end", "nuclearity", "relation", "children", "line"]
    edu = EDU(4, "Rain fell,", paragraph=2)
    assert edu == EDU(index=4, text="Rain fell,", sentence=None, paragraph=2)
    assert dataclasses.replace(edu, sentence=1).sentence == 1
    for obj, name in ((node, "start"), (node, "line"), (edu, "text")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, 0)
    with pytest.raises(TypeError):
        Node(1, 1, "N")  # relation is required


def test_the_readers_constructors_make_the_same_frozen_objects():
    """formats._fastnodes.new_node/new_edu (the readers' fast path) give real Nodes and EDUs, equal to
    the constructors' own."""
    import dataclasses

    from rstkit.formats._fastnodes import new_edu, new_node
    from rstkit.tree import EDU, Node

    leaf_node = new_node(2, 2, "S", "cause", (), 5)
    node = new_node(1, 2, "N", "span", (new_node(1, 1, "N", "span", (), 4), leaf_node), 3)
    assert type(node) is Node and type(leaf_node) is Node
    assert node == Node(1, 2, "N", "span", (Node(1, 1, "N", "span"), Node(2, 2, "S", "cause")))
    assert (node.line, leaf_node.line) == (3, 5)
    edu = new_edu(1, "Rain fell,", None, 2)
    assert type(edu) is EDU and edu == EDU(1, "Rain fell,", paragraph=2)
    for obj, name in ((node, "end"), (edu, "index")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, 0)
