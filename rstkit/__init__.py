"""rstkit: RST discourse parsing and its exact, reproducible evaluation.

The public API in one place::

    import rstkit
    tree = rstkit.read_tree("wsj_0600.out.dis")
    gold = rstkit.read_documents("gold/")                 # {doc_id: RSTTree}
    corpus = rstkit.open_corpus("path/to/gum")            # or rstkit.resolve_corpus("gum")
    result = rstkit.evaluate("gold/", "pred/", rstkit.EvalConfig(metric="parseval"))  # or trees, {doc_id: tree}
    print(result.render("latex"))                          # exactly what `rstkit eval --format latex` prints
    svg = rstkit.draw.to_svg(tree)

Trees (:mod:`.tree`), reading and writing (:mod:`.corpus`, :mod:`.formats`), transforms
(:mod:`.transform`, :mod:`.labels`, :mod:`.dependency`), scoring (:mod:`.evaluation` over
:mod:`.metrics`), audits
(:mod:`.audit`), drawing (:mod:`.draw`) and statistics are imported here; the parser and the
segmenter (``Parser``, ``Segmenter``: extra ``parser``, torch) and a few heavier names are
imported on first use (:data:`_LAZY`), so ``import rstkit`` does not import torch. Everything else
is reached through its submodule.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

from . import draw
from ._version import __version__
from .audit import audit, audit_paper, load_paper, parse_published, render_audit, render_paper
from .convert import convert
from .corpus import Corpus, open_corpus, read_documents, read_file, read_tree, resolve_corpus
from .errors import RSTKitError, RSTKitWarning
from .evaluation import Evaluation, evaluate
from .formats import get_format
from .formats.detect import detect_format
from .formats.dis import dumps_dis, loads_dis
from .labels import LabelMap, canonical_label, get_label_map
from .metrics import EvalConfig, EvalResult
from .stats import corpus_stats
from .transform import attachment_decisions, binarize, from_attachment, marcu_tuples, to_attachment
from .tree import EDU, Node, RSTTree, from_nltk, to_nltk, validate

#: names imported on first use, (module, attribute): they import torch (extra ``parser``; not in
#: ``__all__``), networkx, or XML machinery that ``import rstkit`` need not pay for
_LAZY = {
    "Parser": ("rstkit.parser", "Parser"),
    "Segmenter": ("rstkit.segment", "Segmenter"),
    "to_dependencies": ("rstkit.dependency", "to_dependencies"),
    "from_dependencies": ("rstkit.dependency", "from_dependencies"),
    "loads_rs3": ("rstkit.formats.rs3", "loads_rs3"),
    "dumps_rs3": ("rstkit.formats.rs3", "dumps_rs3"),
    "loads_rsd": ("rstkit.formats.rsd", "loads_rsd"),
    "dumps_rsd": ("rstkit.formats.rsd", "dumps_rsd"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'rstkit' has no attribute {name!r}")
    module, attribute = _LAZY[name]
    try:
        return getattr(import_module(module), attribute)
    except AttributeError:
        raise AttributeError(f"rstkit.{name} is not part of this version of rstkit ({module} has no {attribute})"
                             ) from None


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "EDU",
    "Corpus",
    "EvalConfig",
    "EvalResult",
    "Evaluation",
    "LabelMap",
    "Node",
    "RSTKitError",
    "RSTKitWarning",
    "RSTTree",
    "__version__",
    "attachment_decisions",
    "audit",
    "audit_paper",
    "binarize",
    "canonical_label",
    "convert",
    "corpus_stats",
    "detect_format",
    "draw",
    "dumps_dis",
    "dumps_rs3",
    "dumps_rsd",
    "evaluate",
    "from_attachment",
    "from_dependencies",
    "from_nltk",
    "get_format",
    "get_label_map",
    "load_paper",
    "loads_dis",
    "loads_rs3",
    "loads_rsd",
    "marcu_tuples",
    "open_corpus",
    "parse_published",
    "read_documents",
    "read_file",
    "read_tree",
    "render_audit",
    "render_paper",
    "resolve_corpus",
    "to_attachment",
    "to_dependencies",
    "to_nltk",
    "validate",
]
