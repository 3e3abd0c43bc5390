"""The DiscoEval RST instances: one per internal node of the right-heavy-binarized tree.

Each instance names its document, the EDU spans of its left and right children and a
label made of the nuclearity pair and the coarse relation class, e.g. ``NS-Elaboration``
(Chen, Chu & Gimpel 2019). The relation of a node is that of its right child when the
right child is a satellite, else that of its left child (rstkit's attachment decisions,
docs/evaluation.md#attachment-decisions). The class name is written with its first letter upper-case and
the rest lower-case (``Same-unit``, ``Manner-means``): :data:`LABEL_CASE`.

Documents whose text is masked (GUM's reddit documents: underscores only) or absent
cannot be encoded; :func:`build_task` leaves them out with a warning unless asked not to.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

from ..corpus import Corpus
from ..errors import CorpusError, LabelError, RSTKitWarning
from ..labels import LabelMap
from ..transform import binarize, to_attachment
from ..tree import SPAN, RSTTree

#: how labels are spelled, recorded in the signature
LABEL_CASE = "Capitalized"
#: the splits the task needs: a classifier is fitted on train, selected on dev, reported on test
TASK_SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class Instance:
    """One internal node: its document, its children's EDU spans (1-based, inclusive), its label."""

    doc_id: str
    left: tuple[int, int]
    right: tuple[int, int]
    label: str


@dataclass
class SplitTask:
    """The instances of one split and the EDU texts of its documents."""

    name: str
    texts: dict[str, tuple[str, ...]]
    instances: list[Instance]

    @property
    def n_documents(self) -> int:
        return len(self.texts)

    @property
    def n_edus(self) -> int:
        return sum(len(t) for t in self.texts.values())


@dataclass
class ProbeTask:
    """Train, dev and test splits of one corpus, labelled with one label map."""

    corpus: str
    label_map: str
    splits: dict[str, SplitTask]
    excluded: dict[str, list[str]] = field(default_factory=dict)

    def labels(self) -> list[str]:
        """Every label occurring in any split, sorted."""
        return sorted({i.label for s in self.splits.values() for i in s.instances})


def label_name(pair: str, relation: str, label_map: LabelMap, source: str | None = None) -> str:
    """``NS-Elaboration`` from the pair ``NS`` and a relation, mapped to its class first."""
    cls = label_map.map(relation, path=source)
    if cls == SPAN:
        raise LabelError(f"a node with children {pair} has no relation, only 'span'", source)
    return f"{pair}-{cls.capitalize()}"


def tree_instances(tree: RSTTree, label_map: LabelMap) -> list[Instance]:
    """The n - 1 instances of one document, in pre-order (root first)."""
    decisions = to_attachment(binarize(tree, "right")).root
    instances = []
    for node in decisions.nodes():
        if node.is_leaf:
            continue
        left, right = node.children
        where = f"{tree.source or tree.doc_id} (EDUs {node.start}-{node.end})"
        instances.append(Instance(tree.doc_id, (left.start, left.end), (right.start, right.end),
                                  label_name(node.pair, node.relation, label_map, where)))
    return instances


def has_readable_text(tree: RSTTree) -> bool:
    """False when no EDU holds a letter or digit (masked with underscores, or no text at all)."""
    return any(ch.isalnum() for edu in tree.edus for ch in edu.text)


def build_split(name: str, trees: dict[str, RSTTree], label_map: LabelMap) -> SplitTask:
    texts = {doc_id: tuple(tree.edu_texts()) for doc_id, tree in trees.items()}
    instances = [i for tree in trees.values() for i in tree_instances(tree, label_map)]
    return SplitTask(name, texts, instances)


def build_task(corpus: Corpus, label_map: LabelMap, include_masked: bool = False) -> ProbeTask:
    """Read the train, dev and test splits of ``corpus`` and build their instances.

    Documents without readable text are left out (with one warning per split) unless
    ``include_masked``; a split left empty is an error.
    """
    missing = [s for s in TASK_SPLITS if s not in corpus.split_ids]
    if missing:
        raise CorpusError(f"the DiscoEval task needs splits {', '.join(TASK_SPLITS)}; corpus {corpus.name} "
                          f"lacks {', '.join(missing)} (a plain directory names them in splits.tsv)",
                          str(corpus.root))
    splits: dict[str, SplitTask] = {}
    excluded: dict[str, list[str]] = {}
    for name in TASK_SPLITS:
        trees = corpus.documents(name)
        masked = [] if include_masked else [d for d, t in trees.items() if not has_readable_text(t)]
        if masked:
            warnings.warn(f"{name}: {len(masked)} document(s) without readable text left out "
                          f"({', '.join(masked[:3])}{', ...' if len(masked) > 3 else ''}); "
                          "--include-masked keeps them", RSTKitWarning, stacklevel=2)
            trees = {d: t for d, t in trees.items() if d not in set(masked)}
        if not trees:
            raise CorpusError(f"split {name!r} has no document to probe", str(corpus.root))
        excluded[name] = masked
        splits[name] = build_split(name, trees, label_map)
        if not splits[name].instances:
            raise CorpusError(f"split {name!r} has no internal node to probe (one-EDU documents only)",
                              str(corpus.root))
    return ProbeTask(corpus.name, label_map.name, splits, excluded)
