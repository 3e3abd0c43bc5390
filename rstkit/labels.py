"""Relation inventories and label maps, as named data.

A :class:`LabelMap` turns a relation label into the label that is scored. The built-in
maps are

* ``rstdt18``: RST-DT fine labels to the 18 classes of Carlson & Marcu, exactly educe's
  ``rst_112to18`` table (lowercase first, then look up). The 18 class names themselves and
  the spelling variants of parser output (``sameunit``, ``same_unit``,
  ``textual-organization``, ``topicchange``, ...) are known labels too.
* ``gum``: GUM fine labels (``class-subtype``) to their class, the part before the first
  ``-``; ``same-unit`` is kept whole. Class names are known labels too.
* ``raw``: identity (case-sensitive, as the reference scores without ``--coarse``).

``span`` (the nucleus marker of Marcu's encoding) is not a relation and maps to itself
in every map. A label a map does not know is an error naming the label, the file and the
map, unless the caller keeps unknown labels (``unknown_labels="keep"``, the reference behaviour:
the lowercased label is kept), the one spelling of that setting everywhere (the command line's
``--keep-unknown-labels``).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources

from .errors import LabelError, RSTKitError
from .settings import LABEL_MAPS, UNKNOWN_LABEL_POLICIES, UnknownLabels
from .tree import SPAN, Node, RSTTree

#: spellings of multi-word RST-DT classes written without their hyphen, and other aliases
_HYPHEN_RESTORED = {
    "sameunit": "same-unit",
    "textualorganization": "textual-organization",
    "topicchange": "topic-change",
    "topiccomment": "topic-comment",
    "mannermeans": "manner-means",
    "textual": "textual-organization",
}


def canonical_label(label: str) -> str:
    """Canonical spelling of a relation label (docs/formats.md#label-spelling).

    Lower-case, trim, ``_`` to ``-``, restore the hyphen of multi-word classes written
    without it; everything else is kept (fine labels stay fine).

    >>> canonical_label(" Same_Unit"), canonical_label("TextualOrganization"), canonical_label("Elaboration-Additional")
    ('same-unit', 'textual-organization', 'elaboration-additional')
    """
    key = label.strip().lower().replace("_", "-")
    return _HYPHEN_RESTORED.get(key, key)


@dataclass(frozen=True)
class LabelMap:
    """A named relation-label map.

    ``table`` maps (lowercased, when ``lowercase``) labels to scored labels; ``None``
    means identity. ``aliases`` maps other spellings onto keys of ``table``.

    >>> from rstkit import read_tree
    >>> tree = read_tree("corpora/sample/gold/sample_bread.dis")
    >>> coarse = get_label_map("rstdt18").apply(tree)
    >>> sorted({node.relation for node in coarse.nodes() if node.relation})
    ['background', 'enablement', 'span', 'temporal']
    """

    name: str
    description: str
    table: Mapping[str, str] | None = None
    lowercase: bool = True
    aliases: Mapping[str, str] = field(default_factory=dict)

    def lookup(self, label: str) -> str | None:
        """The mapped label, or None when the map does not know ``label``."""
        if self.table is None or label == SPAN:
            return label
        key = label.lower() if self.lowercase else label
        if key in self.table:
            return self.table[key]
        canon = canonical_label(key)
        canon = self.aliases.get(canon, canon)
        return self.table.get(canon)

    def map(self, label: str, unknown_labels: UnknownLabels = "error", path: str | None = None,
            line: int | None = None) -> str:
        """Map one label; an unknown label raises LabelError, or with ``unknown_labels="keep"`` is
        kept, lowercased when the map lowercases (as educe does).
        """
        mapped = self.lookup(label)
        if mapped is not None:
            return mapped
        if _checked(unknown_labels) == "keep":
            return label.lower() if self.lowercase else label
        raise LabelError(f"relation label {label!r} is unknown to label map {self.name!r}", path, line,
                         fixes=("unknown_labels", "labels"))

    def relabeller(self, unknown_labels: UnknownLabels = "error") -> Mapping[str | None, str] | None:
        """This map as a dict-like lookup for walks over many nodes: ``relabel[label]`` is
        ``self.map(label, unknown_labels)`` (the root's ``None`` stays ``None``), computed once per distinct
        label; a label the map does not know raises ``KeyError`` (not stored), and the caller
        reports it with :meth:`map` or :meth:`apply`. None for the identity map."""
        if self.table is None:
            return None
        key = (id(self), _checked(unknown_labels))
        if key not in _RELABELLERS:
            _RELABELLERS[key] = (self, _Relabel(self, unknown_labels))
        return _RELABELLERS[key][1]

    def apply(self, tree: RSTTree, unknown_labels: UnknownLabels = "error") -> RSTTree:
        """A copy of ``tree`` with every relation label mapped, its secondary edges' (eRST) included."""
        if self.table is None:
            return tree
        _checked(unknown_labels)

        # labels in pre-order (an unknown label is reported where the file has it first),
        # nodes rebuilt in post-order (children before their parent): no recursion
        relations = {id(node): None if node.relation is None
                     else self.map(node.relation, unknown_labels, tree.source, node.line)
                     for node in tree.root.nodes()}
        rebuilt: dict[int, Node] = {}
        for node in tree.root.postorder():
            children = tuple(rebuilt[id(c)] for c in node.children)
            rebuilt[id(node)] = Node(node.start, node.end, node.nuclearity, relations[id(node)], children, node.line)
        erst = tree.erst.relabelled(lambda relation: self.map(relation, unknown_labels, tree.source))
        return replace(tree, root=rebuilt[id(tree.root)], erst=erst)


def _checked(unknown_labels: UnknownLabels) -> UnknownLabels:
    """``unknown_labels`` if it is one of :data:`rstkit.settings.UNKNOWN_LABEL_POLICIES`, else an error (a
    ``True`` or ``False``, 0.1.0's boolean spelling, included: never read as either)."""
    if unknown_labels not in UNKNOWN_LABEL_POLICIES:
        raise RSTKitError(f"unknown_labels must be one of {', '.join(UNKNOWN_LABEL_POLICIES)}, not {unknown_labels!r}")
    return unknown_labels


class _Relabel(dict):
    """Labels met so far -> mapped labels; a new label is mapped on first use."""

    def __init__(self, label_map: LabelMap, unknown_labels: UnknownLabels):
        super().__init__({None: None})
        self.label_map = label_map
        self.unknown_labels = unknown_labels

    def __missing__(self, label: str) -> str:
        mapped = self.label_map.lookup(label)
        if mapped is None:
            if self.unknown_labels != "keep":
                raise KeyError(label)
            mapped = self.label_map.map(label, "keep")
        self[label] = mapped
        return mapped


#: (id of a map, unknown_labels) -> (the map, kept alive so that its id stays its own; its relabeller)
_RELABELLERS: dict[tuple[int, str], tuple[LabelMap, _Relabel]] = {}


@cache
def _rst_112to18() -> dict[str, str]:
    text = resources.files("rstkit.data").joinpath("rst_112to18.tsv").read_text(encoding="utf-8")
    table: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            fine, coarse = line.split("\t")
            table[fine] = coarse
    return table


#: the 18 RST-DT classes in the reference spelling (``textual``, not ``textual-organization``)
RSTDT18_CLASSES = ("attribution", "background", "cause", "comparison", "condition", "contrast",
                   "elaboration", "enablement", "evaluation", "explanation", "joint",
                   "manner-means", "same-unit", "summary", "temporal", "textual", "topic-change",
                   "topic-comment")
#: the same classes in canonical spelling (docs/formats.md#label-inventories: ``textual-organization``),
#: as readers output them and parser-output writers spell them
RSTDT18_CANONICAL = tuple(canonical_label(c) for c in RSTDT18_CLASSES)

#: GUM (eRST, v8+) fine relations: 31 relations plus the pseudo-relation same-unit
GUM_RELATIONS = (
    "adversative-antithesis", "adversative-concession", "adversative-contrast",
    "attribution-negative", "attribution-positive", "causal-cause", "causal-result",
    "context-background", "context-circumstance", "contingency-condition",
    "elaboration-additional", "elaboration-attribute", "evaluation-comment",
    "explanation-evidence", "explanation-justify", "explanation-motivation",
    "joint-disjunction", "joint-list", "joint-other", "joint-sequence", "mode-manner",
    "mode-means", "organization-heading", "organization-phatic", "organization-preparation",
    "purpose-attribute", "purpose-goal", "restatement-partial", "restatement-repetition",
    "same-unit", "topic-question", "topic-solutionhood",
)
#: GUM relations that are multinuclear
GUM_MULTINUCLEAR = frozenset({"adversative-contrast", "joint-disjunction", "joint-list", "joint-other",
                              "joint-sequence", "restatement-repetition", "same-unit"})


def gum_class(label: str) -> str:
    """GUM class of a fine label: the part before the first ``-``; ``same-unit`` kept."""
    label = label.lower()
    return label if label == "same-unit" else label.split("-", 1)[0]


def _rstdt18_table() -> dict[str, str]:
    table = dict(_rst_112to18())
    for cls in RSTDT18_CLASSES:
        table.setdefault(cls, cls)
    return table


def _gum_table() -> dict[str, str]:
    table = {label: gum_class(label) for label in GUM_RELATIONS}
    for cls in set(table.values()):
        table.setdefault(cls, cls)
    return table


_MAPS: dict[str, LabelMap] = {}


def _register(label_map: LabelMap) -> None:
    _MAPS[label_map.name] = label_map


_register(LabelMap("raw", "identity: labels scored exactly as written (case-sensitive)", None, lowercase=False))
_register(LabelMap("rstdt18", "RST-DT fine labels to the 18 classes (educe rst_112to18, lowercased first)",
                   _rstdt18_table(), aliases={"textual-organization": "textual"}))
_register(LabelMap("gum", "GUM fine labels to their classes (part before the first '-', same-unit kept)",
                   _gum_table()))


def get_label_map(name: str) -> LabelMap:
    """The label map ``name`` (:func:`label_map_names`: ``raw``, ``rstdt18``, ``gum``).

    >>> get_label_map("rstdt18").table["elaboration-additional"]
    'elaboration'
    """
    try:
        return _MAPS[name]
    except KeyError:
        raise LabelError(f"unknown label map {name!r}; known maps: {', '.join(sorted(_MAPS))}") from None


def label_map_names() -> list[str]:
    """The names of the built-in label maps (:data:`rstkit.settings.LABEL_MAPS`), sorted."""
    return sorted(LABEL_MAPS)


def label_maps_for(labels: Iterable[str]) -> list[str]:
    """The built-in label maps, ``raw`` aside, that fit ``labels`` (the relation labels of some data;
    ``span`` is no relation): each map that knows a label that no other of them knows (GUM's
    ``causal-cause``: ``gum``; RST-DT's ``List``: ``rstdt18``). Where no label tells them apart, ``rstdt18``:
    the labels both maps know (``elaboration-additional``, ``purpose``...) fall into the same classes under
    each, and the labels neither knows are kept alike, so either map gives the same scores.

    >>> label_maps_for(["joint-list", "elaboration-additional"]), label_maps_for(["List", "attribution"])
    (['gum'], ['rstdt18'])
    """
    maps = [label_map for name in label_map_names() if (label_map := _MAPS[name]).table is not None]
    relations = set(labels) - {SPAN}
    known = {m.name: {label for label in relations if m.lookup(label) is not None} for m in maps}
    fitting = [m.name for m in maps
               if known[m.name].difference(*(known[other.name] for other in maps if other is not m))]
    return fitting or ["rstdt18"]
