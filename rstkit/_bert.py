"""A BERT encoder in plain torch, and its fast tokenizer through the ``tokenizers`` package: the
inference path of :mod:`rstkit.pretrained` for BERT-type models such as the bundled MiniLM.

Why: importing transformers' model code costs seconds of start-up (``rstkit parse`` of a short
text spent most of its time there); reading the same weights into the few modules BERT needs
(Devlin et al. 2019: word + position + token-type embeddings, then layers of multi-head
self-attention and a GELU feed-forward block, each followed by a residual sum and LayerNorm) costs
milliseconds. The hidden states equal transformers' bit for bit (the same operations in the same order,
attention by ``scaled_dot_product_attention``; tests/parser/test_pretrained.py).
Fine-tuning and models of other types still go through transformers.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn import functional

#: the transformers configuration values this encoder implements
_SUPPORTED = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}


def plain_bert_available(path: Path) -> bool:
    """Whether the model directory ``path`` holds a BERT this module reads: a supported config,
    ``tokenizer.json`` and ``model.safetensors``."""
    try:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    settings_fit = all(config.get(key, value) == value for key, value in _SUPPORTED.items())
    return (settings_fit and config.get("model_type") == "bert" and (path / "tokenizer.json").is_file()
            and (path / "model.safetensors").is_file())


@dataclass(frozen=True)
class BertConfig:
    """The sizes of a BERT (the fields of its ``config.json`` that the encoder needs)."""

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float
    hidden_dropout_prob: float
    attention_probs_dropout_prob: float

    @classmethod
    def read(cls, path: Path) -> BertConfig:
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        return cls(**{name: config[name] for name in cls.__dataclass_fields__})


def _holder(**modules: nn.Module) -> nn.Module:
    """A module that only holds ``modules`` under their names: the parameter names of a BERT checkpoint
    (``attention.self.query.weight``...), so that state dicts pass between this encoder and transformers'."""
    holder = nn.Module()
    for name, module in modules.items():
        holder.add_module(name, module)
    return holder


class _Layer(nn.Module):
    """One encoder layer: self-attention, residual, LayerNorm; feed-forward (GELU), residual, LayerNorm."""

    def __init__(self, config: BertConfig):
        super().__init__()
        size, eps = config.hidden_size, config.layer_norm_eps
        self.heads = config.num_attention_heads
        self.attention = _holder(
            self=_holder(query=nn.Linear(size, size), key=nn.Linear(size, size), value=nn.Linear(size, size)),
            output=_holder(dense=nn.Linear(size, size), LayerNorm=nn.LayerNorm(size, eps=eps)))
        self.intermediate = _holder(dense=nn.Linear(size, config.intermediate_size))
        self.output = _holder(dense=nn.Linear(config.intermediate_size, size), LayerNorm=nn.LayerNorm(size, eps=eps))
        self.attention_dropout = config.attention_probs_dropout_prob
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, states: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        batch, length, size = states.shape
        head = size // self.heads
        attention: Any = self.attention  # holders of named modules (see _holder)
        intermediate: Any = self.intermediate
        output: Any = self.output

        def split(x: torch.Tensor) -> torch.Tensor:  # (batch, heads, length, head)
            return x.view(batch, length, self.heads, head).transpose(1, 2)

        query, key, value = (split(getattr(attention.self, name)(states)) for name in ("query", "key", "value"))
        attended = functional.scaled_dot_product_attention(
            query, key, value, attn_mask=mask, dropout_p=self.attention_dropout if self.training else 0.0)
        attended = attended.transpose(1, 2).reshape(batch, length, size)
        states = attention.output.LayerNorm(states + self.dropout(attention.output.dense(attended)))
        hidden = output.dense(functional.gelu(intermediate.dense(states)))
        return output.LayerNorm(states + self.dropout(hidden))


@dataclass(frozen=True)
class EncoderOutput:
    """What a forward pass gives: every layer's states, embeddings first."""

    hidden_states: tuple[torch.Tensor, ...]


class BertEncoder(nn.Module):
    """BERT's encoder over word-piece ids; ``forward`` takes and gives what transformers' BertModel
    does for ``output_hidden_states=True`` (``config`` too), which is all :mod:`rstkit.pretrained` asks.
    Its parameters carry transformers' names (pooler included, unused here), so the two exchange
    state dicts."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.config = config
        size = config.hidden_size
        self.embeddings = _holder(
            word_embeddings=nn.Embedding(config.vocab_size, size),
            position_embeddings=nn.Embedding(config.max_position_embeddings, size),
            token_type_embeddings=nn.Embedding(config.type_vocab_size, size),
            LayerNorm=nn.LayerNorm(size, eps=config.layer_norm_eps))
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        self.encoder = _holder(layer=nn.ModuleList(_Layer(config) for _ in range(config.num_hidden_layers)))
        self.pooler = _holder(dense=nn.Linear(size, size))

    @classmethod
    def read(cls, path: Path) -> BertEncoder:
        """The encoder of the model directory ``path`` (``config.json``, ``model.safetensors``)."""
        from safetensors.torch import load_file

        encoder = cls(BertConfig.read(path))
        weights = load_file(str(path / "model.safetensors"))
        prefix = "bert." if any(k.startswith("bert.") for k in weights) else ""
        wanted = encoder.state_dict()
        encoder.load_state_dict({name: weights.get(prefix + name, wanted[name]) for name in wanted})
        missing = [name for name in wanted if prefix + name not in weights and not name.startswith("pooler.")]
        if missing:
            raise KeyError(f"{path / 'model.safetensors'} lacks {', '.join(missing[:3])}")
        return encoder

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                output_hidden_states: bool = True) -> EncoderOutput:
        embeddings: Any = self.embeddings  # a holder of named modules (see _holder)
        encoder: Any = self.encoder
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        states = embeddings.word_embeddings(input_ids) + embeddings.token_type_embeddings(torch.zeros_like(input_ids))
        states = states + embeddings.position_embeddings(positions)[None]
        states = self.dropout(embeddings.LayerNorm(states))
        mask = None  # every position attends everywhere, as transformers leaves it when the mask is all ones
        if attention_mask is not None and not bool(attention_mask.all()):
            mask = (1.0 - attention_mask[:, None, None, :].to(states.dtype)) * torch.finfo(states.dtype).min
        hidden = [states]
        for layer in encoder.layer:
            states = layer(states, mask)
            hidden.append(states)
        return EncoderOutput(tuple(hidden))


class FastTokenizer:
    """The model's ``tokenizer.json`` through the ``tokenizers`` package, called as transformers'
    fast tokenizers are (``input_ids``, ``offset_mapping``)."""

    is_fast = True

    def __init__(self, path: Path):
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        settings: dict[str, Any] = {}
        if (path / "tokenizer_config.json").is_file():
            settings = json.loads((path / "tokenizer_config.json").read_text(encoding="utf-8"))
        self.model_max_length = int(settings.get("model_max_length") or 1_000_000_000)

    def __call__(self, text: str, add_special_tokens: bool = True, return_offsets_mapping: bool = False,
                 verbose: bool = False) -> dict[str, list]:
        encoded = self._tokenizer.encode(text, add_special_tokens=add_special_tokens)
        result: dict[str, list] = {"input_ids": list(encoded.ids)}
        if return_offsets_mapping:
            result["offset_mapping"] = [tuple(pair) for pair in encoded.offsets]
        return result
