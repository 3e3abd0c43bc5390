"""Greedy and beam decoding, batched across documents.

All hypotheses of all documents in a batch are scored by one forward pass per step.
A hypothesis is ranked by the log-probability of its actions; the nuclearity pair and
relation of a reduce are the most probable pair-and-relation (labels do not change later
states, so choosing them greedily loses nothing). With ``beam=1`` this is greedy decoding.
"""
from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np
import torch

from ..tree import RSTTree
from .model import ParserModel, PreparedDocument, StateArrays
from .transition import PAIRS, REDUCE, SHIFT, Action, ParserState


def autocast(device: torch.device, enabled: bool):
    """Mixed precision on CUDA (float16), a no-op elsewhere."""
    if enabled and device.type == "cuda":
        return torch.autocast(device_type="cuda", dtype=torch.float16)
    return contextlib.nullcontext()


@torch.no_grad()
def decode_batch(model: ParserModel, docs: Sequence[PreparedDocument], device: torch.device, beam: int = 1,
                 amp: bool = False) -> list[RSTTree]:
    """Parse the documents of one batch; trees in the order of ``docs``."""
    if beam < 1:
        raise ValueError("beam size must be at least 1")
    with autocast(device, amp):
        encoded = model.encode(model.encoder.collate([d.inputs for d in docs], device), [len(d.edus) for d in docs])
    hyps: list[list[tuple[float, ParserState]]] = [[(0.0, ParserState(len(d.edus)))] for d in docs]
    while True:
        active = [i for i, h in enumerate(hyps) if not h[0][1].is_final]
        if not active:
            break
        rows, arrays = [], []
        for i in active:
            arrays.append(StateArrays.of(docs[i].boundaries, [state.view() for _, state in hyps[i]], model.context))
            rows.extend([i] * len(hyps[i]))
        spans = torch.from_numpy(np.concatenate([a.spans for a in arrays])).to(device)
        present = torch.from_numpy(np.concatenate([a.present for a in arrays])).to(device)
        features = torch.from_numpy(np.concatenate([a.features for a in arrays])).to(device)
        with autocast(device, amp):
            action, pair, relation = model.score(encoded, torch.tensor(rows, device=device), spans, present, features)
        action_lp = torch.log_softmax(action.float(), -1).cpu().numpy()
        best_pair, best_relation = best_labels(pair, relation)
        row = 0
        for i in active:
            candidates: list[tuple[float, ParserState, Action]] = []
            for score, state in hyps[i]:
                if state.can_shift:
                    candidates.append((score + float(action_lp[row, 0]), state, Action(SHIFT)))
                if state.can_reduce:
                    reduce = Action(REDUCE, PAIRS[best_pair[row]], model.relations[best_relation[row]])
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


def best_labels(pair: torch.Tensor, relation: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
    """The (pair, relation) of highest ``log p(pair) + log p(relation | pair)`` for each state."""
    joint = torch.log_softmax(pair.float(), -1).unsqueeze(-1) + torch.log_softmax(relation.float(), -1)
    best = joint.flatten(1).argmax(-1)
    n_relations = relation.shape[-1]
    return (best // n_relations).cpu().numpy(), (best % n_relations).cpu().numpy()


def decode(model: ParserModel, docs: Sequence[PreparedDocument], device: torch.device, beam: int = 1,
           batch_docs: int = 16, amp: bool = False, progress: bool = False) -> dict[str, RSTTree]:
    """Parse documents in batches of similar length; ``{doc_id: tree}`` in input order."""
    from tqdm import tqdm

    was_training = model.training
    model.eval()
    order = sorted(range(len(docs)), key=lambda i: len(docs[i].edus))
    trees: dict[int, RSTTree] = {}
    bar = tqdm(total=len(docs), desc="parse", unit="doc", disable=not progress, leave=False)
    for start in range(0, len(order), batch_docs):
        chunk = order[start:start + batch_docs]
        for i, tree in zip(chunk, decode_batch(model, [docs[i] for i in chunk], device, beam, amp)):
            trees[i] = tree
        bar.update(len(chunk))
    bar.close()
    model.train(was_training)
    return {docs[i].doc_id: trees[i] for i in range(len(docs))}
