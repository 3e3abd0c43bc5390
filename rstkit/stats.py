"""Corpus statistics: documents, EDUs, node arities, nuclearity patterns, relations, and, for documents
with an eRST layer (GUM's .rs4), secondary edges by relation and signals by type and subtype.

:func:`corpus_stats` counts (plain data, ready for JSON); :func:`stats_text` is what
``rstkit stats`` prints.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from .errors import RSTKitError, printable
from .tree import RSTTree, SecondaryEdge


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
    erst = _erst_stats(documents.values())
    return {
        "documents": len(documents),
        "edus": edus,
        "edus_per_document": {"min": sizes[0] if sizes else 0, "max": sizes[-1] if sizes else 0,
                              "mean": edus / len(sizes) if sizes else 0.0},
        "internal_nodes": sum(arity.values()),
        "nodes_by_arity": dict(sorted(arity.items(), key=lambda kv: int(kv[0]))),
        "nuclearity_patterns": dict(patterns.most_common()),
        "relations": dict(relations.most_common()),
        **({"erst": erst} if erst else {}),
        "errors": [{"path": e.path, "line": e.line, "message": e.message} for e in errors],
    }


def _erst_stats(trees: Iterable[RSTTree]) -> dict | None:
    """The eRST layers' counts (None when no document has one): documents with one, secondary edges by
    relation, signals (those of secondary edges, those without tokens) by type and, within each, subtype."""
    documents = edges = signals = on_edges = without_tokens = 0
    relations: Counter[str] = Counter()
    types: Counter[str] = Counter()
    subtypes: dict[str, Counter[str]] = {}
    for tree in trees:
        layer = tree.erst
        if layer.is_empty():
            continue
        documents += 1
        edges += len(layer.secondary_edges)
        relations.update(edge.relation for edge in layer.secondary_edges)
        for signal in layer.signals:
            signals += 1
            on_edges += isinstance(signal.source, SecondaryEdge)
            without_tokens += not signal.tokens
            types[signal.type] += 1
            subtypes.setdefault(signal.type, Counter())[signal.subtype] += 1
    if not documents:
        return None
    return {
        "documents": documents,
        "secondary_edges": edges,
        "secondary_edge_relations": dict(relations.most_common()),
        "signals": signals,
        "signals_on_secondary_edges": on_edges,
        "signals_without_tokens": without_tokens,
        "signal_types": {kind: {"signals": count, "subtypes": dict(subtypes[kind].most_common())}
                         for kind, count in types.most_common()},
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
    erst = stats.get("erst")
    if erst:
        lines.append(f"eRST layers {erst['documents']} document(s)")
        lines.append(f"secondary edges {erst['secondary_edges']}")
        lines.extend(f"  {printable(name, limit=None):<28} {count}"
                     for name, count in erst["secondary_edge_relations"].items())
        lines.append(f"signals    {erst['signals']}  (of secondary edges {erst['signals_on_secondary_edges']}, "
                     f"without tokens {erst['signals_without_tokens']})")
        for kind, counts in erst["signal_types"].items():
            lines.append(f"  {printable(kind, limit=None):<28} {counts['signals']}")
            lines.extend(f"    {printable(sub, limit=None):<26} {count}" for sub, count in counts["subtypes"].items())
    if stats["errors"]:
        lines.append(f"errors: {len(stats['errors'])} file(s) could not be read (listed on stderr)")
    return "\n".join(lines)
