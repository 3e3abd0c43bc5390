"""rstkit: RST discourse parsing and its exact, reproducible evaluation.

The public API in one place, by task::

    import rstkit
    tree = rstkit.read_tree("wsj_0600.out.dis")            # read and write
    gold = rstkit.read_documents("gold/")                  # {doc_id: RSTTree}
    text = rstkit.dumps(tree, "rs3")                        # any format rstkit writes; rstkit.loads reads
    binary = rstkit.binarize(tree, "right")                 # transform
    result = rstkit.evaluate("gold/", "pred/", rstkit.EvalConfig(metric="parseval"))  # evaluate
    print(result.render("latex"))                           # exactly what `rstkit eval --format latex` prints
    svg = rstkit.draw.to_svg(tree)                          # draw

* trees: ``EDU``, ``Node``, ``RSTTree``, ``validate``, ``from_nltk``, ``to_nltk``;
* read and write: ``read_tree``, ``read_file``, ``read_documents``, ``loads``, ``dumps``,
  ``open_corpus``, ``resolve_corpus``, ``Corpus``, ``detect_format``;
* transform: ``binarize``, ``marcu_tuples``, ``attachment_decisions``, ``to_attachment``,
  ``from_attachment``, ``to_dependencies``, ``from_dependencies``, ``convert_documents``,
  ``LabelMap``, ``get_label_map``;
* evaluate: ``EvalConfig``, ``evaluate``, ``Evaluation``, ``EvalResult``, ``corpus_stats``;
* audit: ``audit_published``, ``audit_paper``, ``load_paper``, ``parse_published``;
* draw: ``draw`` (the module);
* parse and segment: ``Parser``, ``Segmenter`` (extra ``parser``: torch);
* ``RSTKitError``, ``RSTKitWarning``, ``__version__``.

Every name is imported on first use (:data:`_LAZY`): ``import rstkit`` imports nothing heavy, and
``Parser``/``Segmenter`` name the extra to install when torch is missing. Everything else is reached
through its submodule.
"""
from __future__ import annotations

from importlib import import_module

from ._version import __version__

#: ``typing.TYPE_CHECKING`` without importing ``typing``: the command line's start-up runs this module
#: before its interrupt handling (``__main__``), so it imports nothing Python has not imported already
TYPE_CHECKING = False
if TYPE_CHECKING:  # what type checkers see; at run time each name is imported on first use (_PUBLIC)
    from typing import Any

    from . import draw
    from .audit import audit_paper, audit_published, load_paper, parse_published
    from .convert import convert_documents
    from .corpus import Corpus, open_corpus, read_documents, read_file, read_tree, resolve_corpus
    from .dependency import from_dependencies, to_dependencies
    from .errors import RSTKitError, RSTKitWarning
    from .evaluation import Evaluation, evaluate
    from .formats import dumps, loads
    from .formats.detect import detect_format
    from .labels import LabelMap, get_label_map
    from .metrics import EvalConfig, EvalResult
    from .parser import Parser
    from .segment import Segmenter
    from .stats import corpus_stats
    from .transform import attachment_decisions, binarize, from_attachment, marcu_tuples, to_attachment
    from .tree import EDU, Node, RSTTree, from_nltk, to_nltk, validate

#: the public names by module, imported on first use so that ``import rstkit`` (and the command
#: line, which is inside the package) pays only for what it uses; ``None``: the module itself
_PUBLIC: dict[str, list[str | None]] = {
    "rstkit.tree": ["EDU", "Node", "RSTTree", "validate", "from_nltk", "to_nltk"],
    "rstkit.corpus": ["read_tree", "read_file", "read_documents", "open_corpus", "resolve_corpus", "Corpus"],
    "rstkit.formats": ["loads", "dumps"],
    "rstkit.formats.detect": ["detect_format"],
    "rstkit.transform": ["binarize", "marcu_tuples", "attachment_decisions", "to_attachment", "from_attachment"],
    "rstkit.dependency": ["to_dependencies", "from_dependencies"],
    "rstkit.convert": ["convert_documents"],
    "rstkit.labels": ["LabelMap", "get_label_map"],
    "rstkit.metrics": ["EvalConfig", "EvalResult"],
    "rstkit.evaluation": ["evaluate", "Evaluation"],
    "rstkit.stats": ["corpus_stats"],
    "rstkit.audit": ["audit_published", "audit_paper", "load_paper", "parse_published"],
    "rstkit.draw": [None],
    "rstkit.parser": ["Parser"],
    "rstkit.segment": ["Segmenter"],
    "rstkit.errors": ["RSTKitError", "RSTKitWarning"],
}

#: names imported on first use: (module, attribute; None: the module itself)
_LAZY = {
    **{name or module.rpartition(".")[2]: (module, name) for module, names in _PUBLIC.items() for name in names},
    "audit": ("rstkit.audit", None),  # modules, as rstkit.draw
    "convert": ("rstkit.convert", None),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'rstkit' has no attribute {name!r}")
    module, attribute = _LAZY[name]
    import_module("rstkit.draw")  # trees display in notebooks once rstkit's names are used (tree.register_display)
    try:
        loaded = import_module(module)
        value = loaded if attribute is None else getattr(loaded, attribute)
    except ModuleNotFoundError as exc:  # an optional package (torch, transformers) missing
        from .extras import extra_of, needs

        if exc.name is None or extra_of(exc.name) is None:
            raise
        raise ModuleNotFoundError(needs(f"rstkit.{name}", exc.name), name=exc.name) from None
    except AttributeError:
        raise AttributeError(f"rstkit.{name} is not part of this version of rstkit ({module} has no {attribute})"
                             ) from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [  # noqa: RUF022 -- grouped by task, in the order of the docstring
    # trees
    "EDU", "Node", "RSTTree", "validate", "from_nltk", "to_nltk",
    # read and write
    "read_tree", "read_file", "read_documents", "loads", "dumps", "open_corpus", "resolve_corpus", "Corpus",
    "detect_format",
    # transform
    "binarize", "marcu_tuples", "attachment_decisions", "to_attachment", "from_attachment", "to_dependencies",
    "from_dependencies", "convert_documents", "LabelMap", "get_label_map",
    # evaluate
    "EvalConfig", "evaluate", "Evaluation", "EvalResult", "corpus_stats",
    # audit
    "audit_published", "audit_paper", "load_paper", "parse_published",
    # draw
    "draw",
    # parse and segment
    "Parser", "Segmenter",
    # errors and version
    "RSTKitError", "RSTKitWarning", "__version__",
]
