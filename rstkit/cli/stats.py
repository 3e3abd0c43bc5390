"""``rstkit stats PATH``: documents, EDUs, node arities, nuclearity patterns, relations.

Unreadable documents are left out of the counts and listed (in the JSON ``errors`` and
one line each on stderr); the exit status is then 2, as for any input error.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from ..corpus import read_documents
from ..errors import RSTKitError
from ..tree import RSTTree
from . import error_line
from .common import add_input_options, check_input, input_format


def corpus_stats(documents: dict[str, RSTTree]) -> dict:
    """Counts over a set of documents (plain data, ready for JSON)."""
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
    }


def add_parser(sub) -> None:
    p = sub.add_parser("stats", help="corpus statistics", description=__doc__)
    p.add_argument("path", help="a file, a directory, a GUM checkout or an RST-DT release")
    p.add_argument("--format", dest="output", choices=["text", "json"], default="text", help="output format")
    add_input_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_input(args.path)
    notes: list[str] = []
    in_format = input_format(args.path, args.in_format, notes)
    for note in notes:
        print(f"rstkit: {note}", file=sys.stderr)
    errors: list[RSTKitError] = []
    documents = read_documents(args.path, in_format, lenient=args.lenient, skip_errors=True, errors=errors)
    stats = corpus_stats(documents)
    stats["errors"] = [{"path": e.path, "line": e.line, "message": e.message} for e in errors]
    if args.output == "json":
        print(json.dumps(stats, indent=2))
    else:
        print(_text(stats))
    for e in errors:
        print(error_line(e), file=sys.stderr)
    return 2 if errors else 0


def _text(stats: dict) -> str:
    lines = [f"documents  {stats['documents']}", f"EDUs       {stats['edus']}"]
    per = stats["edus_per_document"]
    lines.append(f"EDUs/doc   min {per['min']}  mean {per['mean']:.1f}  max {per['max']}")
    lines.append(f"internal nodes {stats['internal_nodes']}")
    lines.append("by arity:   " + "  ".join(f"{k}: {v}" for k, v in stats["nodes_by_arity"].items()))
    lines.append("patterns:   " + "  ".join(f"{k}: {v}" for k, v in stats["nuclearity_patterns"].items()))
    lines.append("relations:")
    lines.extend(f"  {name:<28} {count}" for name, count in stats["relations"].items())
    if stats["errors"]:
        lines.append(f"errors: {len(stats['errors'])} file(s) could not be read (listed on stderr)")
    return "\n".join(lines)
