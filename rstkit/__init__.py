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
:mod:`.metrics`), audits (:mod:`.audit`), drawing (:mod:`.draw`) and statistics are all reached
here, each imported on first use (:data:`_LAZY`): ``import rstkit`` imports nothing heavy, and
the parser and the segmenter (``Parser``, ``Segmenter``: extra ``parser``, torch) name the extra to
install when it is missing. Everything else is reached through its submodule.
"""
from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:  # what type checkers see; at run time each name is imported on first use (_PUBLIC)
    from . import draw
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

#: the public names by module, imported on first use so that ``import rstkit`` (and the command
#: line, which is inside the package) pays only for what it uses; ``None``: the module itself
_PUBLIC: dict[str, list[str | None]] = {
    "rstkit.draw": [None],
    "rstkit.audit": ["audit", "audit_paper", "load_paper", "parse_published", "render_audit", "render_paper"],
    "rstkit.convert": ["convert"],
    "rstkit.corpus": ["Corpus", "open_corpus", "read_documents", "read_file", "read_tree", "resolve_corpus"],
    "rstkit.errors": ["RSTKitError", "RSTKitWarning"],
    "rstkit.evaluation": ["Evaluation", "evaluate"],
    "rstkit.formats": ["get_format"],
    "rstkit.formats.detect": ["detect_format"],
    "rstkit.formats.dis": ["dumps_dis", "loads_dis"],
    "rstkit.labels": ["LabelMap", "canonical_label", "get_label_map"],
    "rstkit.metrics": ["EvalConfig", "EvalResult"],
    "rstkit.stats": ["corpus_stats"],
    "rstkit.transform": ["attachment_decisions", "binarize", "from_attachment", "marcu_tuples", "to_attachment"],
    "rstkit.tree": ["EDU", "Node", "RSTTree", "from_nltk", "to_nltk", "validate"],
}

#: names imported on first use, (module, attribute; None: the module): they import torch (extra
#: ``parser``; ``Parser`` and ``Segmenter`` are not in ``__all__``), networkx, or XML machinery
_LAZY = {
    **{name or module.rpartition(".")[2]: (module, name) for module, names in _PUBLIC.items() for name in names},
    "Parser": ("rstkit.parser", "Parser"),
    "Segmenter": ("rstkit.segment", "Segmenter"),
    "to_dependencies": ("rstkit.dependency", "to_dependencies"),
    "from_dependencies": ("rstkit.dependency", "from_dependencies"),
    "loads_rs3": ("rstkit.formats.rs3", "loads_rs3"),
    "dumps_rs3": ("rstkit.formats.rs3", "dumps_rs3"),
    "loads_rsd": ("rstkit.formats.rsd", "loads_rsd"),
    "dumps_rsd": ("rstkit.formats.rsd", "dumps_rsd"),
}

#: what a missing optional package means: the extra that brings it
_EXTRAS = {"torch": "parser", "transformers": "parser", "tqdm": "parser", "sklearn": "probe"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'rstkit' has no attribute {name!r}")
    module, attribute = _LAZY[name]
    import_module("rstkit.draw")  # trees display in notebooks once rstkit's names are used (tree.register_display)
    try:
        loaded = import_module(module)
        value = loaded if attribute is None else getattr(loaded, attribute)
    except ModuleNotFoundError as exc:  # an optional package (torch, transformers) missing
        extra = _EXTRAS.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        raise ModuleNotFoundError(f"rstkit.{name} needs the {extra!r} extra ({exc.name} is missing): "
                                  f"pip install 'rstkit[{extra}]'", name=exc.name) from None
    except AttributeError:
        raise AttributeError(f"rstkit.{name} is not part of this version of rstkit ({module} has no {attribute})"
                             ) from None
    globals()[name] = value
    return value


#: public names that are also the names of their submodules (``rstkit.audit`` the function of
#: ``rstkit/audit/``): importing the submodule must not put the module where the function is
_SHADOWED = frozenset(name for name, (module, attribute) in _LAZY.items() if module == f"rstkit.{name}" and attribute)


class _Facade(ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, ModuleType):
            return  # the import system binding the submodule; it stays in sys.modules
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Facade


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
