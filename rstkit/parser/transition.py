"""The shift-reduce transition system over gold EDUs, and its static oracle.

A state is a stack of finished subtrees and a queue of EDUs not yet read. ``shift``
moves the next EDU onto the stack; ``reduce`` pops the top two subtrees and joins them
under a binary node labelled with a nuclearity pair (``NS``, ``SN``, ``NN``) and one
relation, following the attachment convention of :func:`rstkit.transform.to_attachment`:
the relation is the satellite's, or both nuclei's for ``NN``; a nucleus of ``NS``/``SN``
carries ``span``. A document of n EDUs takes exactly 2n - 1 actions.

Pure Python: the oracle and the rebuild need no torch.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import BinarizationError, TreeStructureError
from ..tree import EDU, NUCLEUS, ROOT, SATELLITE, SPAN, Node, RSTTree, leaf

SHIFT = "shift"
REDUCE = "reduce"
ACTIONS = (SHIFT, REDUCE)
PAIRS = ("NS", "SN", "NN")

Span = tuple[int, int]
#: a state as a model sees it: (s2, s1, s0) stack spans, (q0, q1) queue EDUs
View = tuple[Span | None, Span | None, Span | None, int | None, int | None]


@dataclass(frozen=True)
class Action:
    """``shift``, or ``reduce`` with a nuclearity pair and a relation."""

    kind: str
    pair: str | None = None
    relation: str | None = None

    def __post_init__(self) -> None:
        if self.kind == REDUCE and (self.pair not in PAIRS or not self.relation):
            raise ValueError(f"reduce needs a pair in {PAIRS} and a relation, got {self.pair!r}, {self.relation!r}")


def _labelled(node: Node, nuclearity: str, relation: str | None) -> Node:
    return replace(node, nuclearity=nuclearity, relation=relation)


class ParserState:
    """Stack and queue of one document (EDUs ``1..n``)."""

    __slots__ = ("n_edus", "next_edu", "stack")

    def __init__(self, n_edus: int):
        if n_edus < 1:
            raise TreeStructureError("a document needs at least one EDU")
        self.n_edus = n_edus
        self.stack: list[Node] = []
        self.next_edu = 1

    def copy(self) -> ParserState:
        other = ParserState.__new__(ParserState)
        other.n_edus, other.stack, other.next_edu = self.n_edus, list(self.stack), self.next_edu
        return other

    @property
    def can_shift(self) -> bool:
        return self.next_edu <= self.n_edus

    @property
    def can_reduce(self) -> bool:
        return len(self.stack) >= 2

    @property
    def is_final(self) -> bool:
        return not self.can_shift and len(self.stack) == 1

    def view(self) -> View:
        """What a model may see: spans of the third, second and first stack items, and the
        next two EDUs of the queue (None where there is no such item)."""
        s2, s1, s0 = ([None] * 3 + [node.span for node in self.stack[-3:]])[-3:]
        q0 = self.next_edu if self.next_edu <= self.n_edus else None
        q1 = self.next_edu + 1 if self.next_edu + 1 <= self.n_edus else None
        return s2, s1, s0, q0, q1

    def apply(self, action: Action) -> None:
        if action.kind == SHIFT:
            if not self.can_shift:
                raise TreeStructureError("illegal action: shift on an empty queue")
            self.stack.append(leaf(self.next_edu, ROOT, None))
            self.next_edu += 1
        elif action.kind == REDUCE:
            if not self.can_reduce:
                raise TreeStructureError("illegal action: reduce with fewer than two stack items")
            right = self.stack.pop()
            left = self.stack.pop()
            if action.pair == "NN":
                kids = (_labelled(left, NUCLEUS, action.relation), _labelled(right, NUCLEUS, action.relation))
            elif action.pair == "NS":
                kids = (_labelled(left, NUCLEUS, SPAN), _labelled(right, SATELLITE, action.relation))
            else:
                kids = (_labelled(left, SATELLITE, action.relation), _labelled(right, NUCLEUS, SPAN))
            self.stack.append(Node(left.start, right.end, ROOT, None, kids))
        else:
            raise ValueError(f"unknown action {action.kind!r}")

    def tree(self, edus: tuple[EDU, ...], doc_id: str = "") -> RSTTree:
        """The finished tree (the one stack item becomes the root)."""
        if not self.is_final:
            raise TreeStructureError(f"{doc_id}: parse is not finished ({len(self.stack)} stack items, "
                                     f"{self.n_edus - self.next_edu + 1} EDUs left)")
        return RSTTree(self.stack[0], tuple(edus), doc_id)


def oracle_actions(tree: RSTTree) -> list[Action]:
    """The action sequence that builds ``tree`` (binary, e.g. right-heavy binarized)."""
    actions: list[Action] = []
    for node in tree.root.postorder():
        if node.is_leaf:
            actions.append(Action(SHIFT))
            continue
        if node.arity != 2:
            raise BinarizationError(f"node {node.start}-{node.end} has {node.arity} children: the oracle needs a "
                                    "binary tree (binarize it first)", tree.source, node.line)
        left, right = node.children
        pair = left.nuclearity[0] + right.nuclearity[0]
        if pair not in PAIRS:
            raise TreeStructureError(f"node {node.start}-{node.end} has nuclearity pair {pair}", tree.source,
                                     node.line)
        relation = right.relation if right.nuclearity == SATELLITE else left.relation
        actions.append(Action(REDUCE, pair, relation))
    return actions


def run_actions(actions: list[Action], edus: tuple[EDU, ...], doc_id: str = "") -> RSTTree:
    """Apply ``actions`` from the initial state and return the tree they build."""
    state = ParserState(len(edus))
    for action in actions:
        state.apply(action)
    return state.tree(edus, doc_id)


def oracle_states(tree: RSTTree) -> list[tuple[View, Action]]:
    """``(state view, gold action)`` for every step of the oracle (teacher forcing)."""
    state = ParserState(tree.n_edus)
    steps = []
    for action in oracle_actions(tree):
        steps.append((state.view(), action))
        state.apply(action)
    return steps
