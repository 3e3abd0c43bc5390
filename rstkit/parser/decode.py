"""Greedy and beam decoding, batched across documents.

All hypotheses of all documents in a batch are scored by one forward pass per step (per
ensemble member; members' log-probabilities are averaged). A hypothesis is ranked by the
log-probability of its actions; the nuclearity pair and relation of a reduce are the most
probable pair-and-relation (labels do not change later states, so choosing them greedily
loses nothing). With ``beam=1`` this is greedy decoding.
"""
from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np
import torch

from ..errors import RSTKitError
from ..progress import Progress
from ..tree import RSTTree
from .ensemble import ModelEnsemble
from .model import ParserInput
from .transition import PAIRS, REDUCE, SHIFT, Action, ParserState


def autocast(device: torch.device, enabled: bool):
    """Mixed precision on CUDA (float16), a no-op elsewhere."""
    if enabled and device.type == "cuda":
        return torch.autocast(device_type="cuda", dtype=torch.float16)
    return contextlib.nullcontext()


@torch.no_grad()
def decode_batch(ensemble: ModelEnsemble, docs: Sequence[ParserInput], device: torch.device, beam: int = 1,
                 amp: bool = False, bar: Progress | None = None) -> list[RSTTree]:
    """Parse the documents of one batch; trees in the order of ``docs``. ``bar`` counts the
    transitions done (each step does one in every unfinished document)."""
    if beam < 1:
        raise RSTKitError("beam size must be at least 1")
    with autocast(device, amp):
        encoded = ensemble.encode(docs, device)
    hyps: list[list[tuple[float, ParserState]]] = [[(0.0, ParserState(len(d.edus)))] for d in docs]
    while True:
        active = [i for i, h in enumerate(hyps) if not h[0][1].is_final]
        if not active:
            break
        if bar is not None:
            bar.update(len(active))
        rows = [i for i in active for _ in hyps[i]]
        views = [(docs[i].boundaries, [state.view() for _, state in hyps[i]]) for i in active]
        with autocast(device, amp):
            scores = ensemble.log_probs(encoded, torch.tensor(rows, device=device), views, device)
        action_lp = scores.action.cpu().numpy()
        best_pair, best_relation = best_labels(scores.pair, scores.relation)
        row = 0
        for i in active:
            candidates: list[tuple[float, ParserState, Action]] = []
            for score, state in hyps[i]:
                if state.can_shift:
                    candidates.append((score + float(action_lp[row, 0]), state, Action(SHIFT)))
                if state.can_reduce:
                    reduce = Action(REDUCE, PAIRS[best_pair[row]], ensemble.relations[best_relation[row]])
                    candidates.append((score + float(action_lp[row, 1]), state, reduce))
                row += 1
            candidates.sort(key=lambda c: -c[0])
            new = []
            for score, state, act in candidates[:beam]:
                state = state.copy()
                state.apply(act)
                new.append((score, state))
            hyps[i] = new
    return [h[0][1].tree(d.edus, d.doc_id) for h, d in zip(hyps, docs)]


def best_labels(pair_lp: torch.Tensor, relation_lp: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
    """The (pair, relation) of highest ``log p(pair) + log p(relation | pair)`` for each state,
    from log-probabilities ``(K, 3)`` and ``(K, 3, R)``."""
    joint = pair_lp.float().unsqueeze(-1) + relation_lp.float()
    best = joint.flatten(1).argmax(-1)
    n_relations = relation_lp.shape[-1]
    return (best // n_relations).cpu().numpy(), (best % n_relations).cpu().numpy()


def decode(ensemble: ModelEnsemble, docs: Sequence[ParserInput], device: torch.device, beam: int = 1,
           batch_docs: int = 16, amp: bool = False, progress: bool = False) -> dict[str, RSTTree]:
    """Parse documents in batches of similar length; ``{doc_id: tree}`` in input order. Progress is
    counted in transitions (a document of n EDUs takes n shifts and n - 1 reduces), so that a batch
    of long documents reports as it goes."""
    states = [m.training for m in ensemble.members]
    ensemble.eval()
    order = sorted(range(len(docs)), key=lambda i: len(docs[i].edus))
    trees: dict[int, RSTTree] = {}
    with Progress(sum(2 * len(d.edus) - 1 for d in docs), "parse", "transition", enabled=progress or None) as bar:
        for start in range(0, len(order), batch_docs):
            chunk = order[start:start + batch_docs]
            for i, tree in zip(chunk, decode_batch(ensemble, [docs[i] for i in chunk], device, beam, amp, bar)):
                trees[i] = tree
    for member, training in zip(ensemble.members, states):
        member.train(training)
    return {docs[i].doc_id: trees[i] for i in range(len(docs))}
