"""Every exception that transform, metrics and audit raise on user input is an RSTKitError."""
from __future__ import annotations

import ast
import importlib
import inspect

import numpy as np
import pytest

from rstkit.errors import RSTKitError, TreeStructureError
from rstkit.formats.dis import loads_dis
from rstkit.metrics import EvalConfig, score_documents
from rstkit.metrics.average import weighted_scores
from rstkit.metrics.counts import Counts
from rstkit.transform import LEAF, Attachment, AttachmentTree, binarize, from_attachment

MODULES = ["rstkit.transform", "rstkit.audit", "rstkit.metrics.average", "rstkit.metrics.config",
           "rstkit.metrics.counts", "rstkit.metrics.edus", "rstkit.metrics.pipeline", "rstkit.metrics.parseval",
           "rstkit.metrics.relations", "rstkit.metrics.rst_parseval", "rstkit.metrics.significance"]

TREE = loads_dis("""( Root (span 1 2) ( Nucleus (leaf 1) (rel2par span) (text _!a_!) )
  ( Satellite (leaf 2) (rel2par elaboration) (text _!b_!) ) )""", doc_id="d")


@pytest.mark.parametrize("name", MODULES)
def test_every_raise_is_an_rstkit_error(name):
    """Read each module's source: every ``raise X(...)`` names an RSTKitError subclass."""
    module = importlib.import_module(name)
    raised = [node.exc for node in ast.walk(ast.parse(inspect.getsource(module))) if isinstance(node, ast.Raise)]
    for exc in raised:
        assert isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name), ast.unparse(exc)
        cls = getattr(module, exc.func.id)
        assert issubclass(cls, RSTKitError), f"{name}: raise {exc.func.id}"


def test_unknown_binarization():
    with pytest.raises(RSTKitError, match="unknown binarization 'left'; choose from right, rst-eval"):
        binarize(TREE, "left")


def test_unknown_average():
    counts = Counts(np.ones((4, 1)), np.ones((4, 1)), np.ones((4, 1)))
    with pytest.raises(RSTKitError, match="unknown average 'median'"):
        weighted_scores(counts, np.ones((1, 1)), "median")


@pytest.mark.parametrize("pair, arity", [("SS", 2), ("NX", 2), ("SNS", 3)])
def test_from_attachment_bad_pair(pair, arity):
    leaves = tuple(Attachment(i, i, LEAF, LEAF) for i in range(1, arity + 1))
    tree = AttachmentTree(Attachment(1, arity, pair, "elaboration", leaves), TREE.edus[:arity] * 2, "d")
    with pytest.raises(TreeStructureError, match=f"nuclearity pair '{pair}' over {arity} children"):
        from_attachment(tree)


def test_no_such_system():
    result = score_documents({"d": TREE}, {"d": TREE}, EvalConfig())
    with pytest.raises(RSTKitError, match="no system 1: this result has 1"):
        result.paired_tests(1)
    with pytest.raises(RSTKitError, match="no system 3"):
        result.bootstrap(system=3)
