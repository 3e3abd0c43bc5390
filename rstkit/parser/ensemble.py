"""Several parser networks scoring the same states: their log-probabilities are averaged.

A single model is an ensemble of one, so decoding has one path. Members must agree on
the relation classes; their encoders may differ (a member's inputs are prepared by its
own encoder, and members whose encoders read the same inputs share them: the frozen
transformer states of a document are computed once for all members).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from ..boundaries import complete
from ..errors import RSTKitError
from ..tree import EDU
from .features import Boundaries, StateArrays
from .inputs import check_input_edus
from .model import EncodedDocuments, ParserInput, ParserModel
from .transition import View


@dataclass
class LogProbs:
    """Log-probabilities of K states: action ``(K, 2)``, pair ``(K, 3)``, relation given pair ``(K, 3, R)``."""

    action: torch.Tensor
    pair: torch.Tensor
    relation: torch.Tensor


class ModelEnsemble:
    """Parser networks whose log-probabilities are averaged (one network: itself)."""

    def __init__(self, members: Sequence[ParserModel]):
        if not members:
            raise RSTKitError("an ensemble needs at least one model")
        relations = members[0].relations
        if any(m.relations != relations for m in members):
            raise RSTKitError("ensemble members predict different relation classes")
        self.members = list(members)
        self.relations = list(relations)

    def parser_input(self, doc_id: str, edus: Sequence[EDU]) -> ParserInput:
        """Inputs of every member for one document (sentences inferred where missing)."""
        edus = complete(edus).edus
        check_input_edus(edus, doc_id)
        texts = [e.text for e in edus]
        inputs, seen = [], {}
        for member in self.members:
            key = member.encoder.input_key()
            if key not in seen:
                seen[key] = member.encoder.text_inputs(texts)
            inputs.append(seen[key])
        return ParserInput(doc_id, tuple(edus), inputs, Boundaries.of(edus))

    def encode(self, docs: Sequence[ParserInput], device: torch.device) -> list[EncodedDocuments]:
        sizes = [len(d.edus) for d in docs]
        return [m.encode(m.encoder.collate([d.inputs[i] for d in docs], device), sizes)
                for i, m in enumerate(self.members)]

    def log_probs(self, encoded: list[EncodedDocuments], rows: torch.Tensor,
                  views: Sequence[tuple[Boundaries, Sequence[View]]], device: torch.device) -> LogProbs:
        """Averaged log-probabilities of the states ``views`` (per document: its boundaries and
        state views), ``rows`` mapping each state to its document in the batch."""
        arrays: dict[int, tuple[torch.Tensor, ...]] = {}
        total: LogProbs | None = None
        for member, docs in zip(self.members, encoded):
            if member.context not in arrays:
                states = StateArrays.of_documents(views, member.context)
                arrays[member.context] = tuple(torch.from_numpy(getattr(states, name)).to(device)
                                               for name in ("spans", "present", "features"))
            action, pair, relation = member.score(docs, rows, *arrays[member.context])
            scores = LogProbs(torch.log_softmax(action.float(), -1), torch.log_softmax(pair.float(), -1),
                              torch.log_softmax(relation.float(), -1))
            if total is None:
                total = scores
            else:
                total = LogProbs(total.action + scores.action, total.pair + scores.pair,
                                 total.relation + scores.relation)
        assert total is not None
        n = len(self.members)
        if n == 1:
            return total
        return LogProbs(torch.log_softmax(total.action / n, -1), torch.log_softmax(total.pair / n, -1),
                        torch.log_softmax(total.relation / n, -1))  # the normalised geometric mean

    def eval(self) -> None:
        for member in self.members:
            member.eval()
