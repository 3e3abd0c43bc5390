"""Corpus statistics: documents, EDUs, node arities, nuclearity patterns, relations.

:func:`corpus_stats` counts (plain data, ready for JSON); :func:`stats_text` is what
``rstkit stats`` prints.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .errors import RSTKitError, printable
from .tree import RSTTree


def corpus_stats(documents: Mapping[str, RSTTree], errors: Sequence[RSTKitError] = ()) -> dict:
    """Counts over a set of documents, and the files that could not be read (``errors``, each
    with path, line and message).

    >>> from rstkit import read_documents
    >>> stats = corpus_stats(read_documents("corpora/sample/gold"))
    >>> stats["documents"], stats["edus"], stats["nodes_by_arity"]
    (4, 20, {'2': 11, '3': 1, '4': 1})
    """
    arity: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    relations: Counter[str] = Counter()
    edus = 0
    for tree in documents.values():
        edus += tree.n_edus
        for node in tree.nodes():
            if node.relation is not None:
                relations[node.relation] += 1
            if not node.is_leaf:
                arity[str(node.arity)] += 1
                patterns[node.pattern()] += 1
    sizes = sorted(t.n_edus for t in documents.values())
    return {
        "documents": len(documents),
        "edus": edus,
        "edus_per_document": {"min": sizes[0] if sizes else 0, "max": sizes[-1] if sizes else 0,
                              "mean": edus / len(sizes) if sizes else 0.0},
        "internal_nodes": sum(arity.values()),
        "nodes_by_arity": dict(sorted(arity.items(), key=lambda kv: int(kv[0]))),
        "nuclearity_patterns": dict(patterns.most_common()),
        "relations": dict(relations.most_common()),
        "errors": [{"path": e.path, "line": e.line, "message": e.message} for e in errors],
    }


def stats_text(stats: dict) -> str:
    """The statistics of :func:`corpus_stats` as aligned text lines (relation labels with control
    characters escaped: :func:`~rstkit.errors.printable`)."""
    lines = [f"documents  {stats['documents']}", f"EDUs       {stats['edus']}"]
    per = stats["edus_per_document"]
    lines.append(f"EDUs/doc   min {per['min']}  mean {per['mean']:.1f}  max {per['max']}")
    lines.append(f"internal nodes {stats['internal_nodes']}")
    lines.append("by arity:   " + "  ".join(f"{k}: {v}" for k, v in stats["nodes_by_arity"].items()))
    lines.append("patterns:   " + "  ".join(f"{k}: {v}" for k, v in stats["nuclearity_patterns"].items()))
    lines.append("relations:")
    lines.extend(f"  {printable(name, limit=None):<28} {count}" for name, count in stats["relations"].items())
    if stats["errors"]:
        lines.append(f"errors: {len(stats['errors'])} file(s) could not be read (listed on stderr)")
    return "\n".join(lines)
