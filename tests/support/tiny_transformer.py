"""A tiny randomly initialised BERT (or MPNet) and its WordPiece tokenizer, saved as a local
transformers model directory (``hf:PATH``), so that tests exercise the pretrained-encoder
path on CPU in well under a second, offline."""
from __future__ import annotations

from pathlib import Path

WORDS = ["the", "cat", "sat", "on", "mat", "and", "then", "it", "left", "because", "was", "tired", "dog",
         "ran", "away", "hello", "world", "we", "said", "no", "yes", "a", "house", "##s", "##ed", "##ing"]
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
PUNCTUATION = list(".,!?;:()\"'")


def vocabulary() -> list[str]:
    return SPECIAL + PUNCTUATION + WORDS


def make_tiny_bert(path: Path, *, layers: int = 2, hidden: int = 16, positions: int = 24, seed: int = 0,
                   mpnet: bool = False) -> Path:
    """Write a BERT (``mpnet``: an MPNet, whose attention has relative position buckets) with
    ``layers`` layers of ``hidden`` units and ``positions`` positions (so that short texts need
    several windows) to ``path``; returns ``path``."""
    import torch
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece
    from transformers import BertConfig, BertModel, MPNetConfig, MPNetModel, PreTrainedTokenizerFast

    path.mkdir(parents=True, exist_ok=True)
    vocab = {token: i for i, token in enumerate(vocabulary())}
    tokenizer = Tokenizer(WordPiece(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", cls_token="[CLS]",
                                   sep_token="[SEP]", pad_token="[PAD]", mask_token="[MASK]",
                                   model_max_length=positions)
    fast.save_pretrained(str(path))
    torch.manual_seed(seed)
    sizes = {"vocab_size": len(vocab), "hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": 2,
             "intermediate_size": 2 * hidden}
    if mpnet:  # MPNet's positions start after its padding id
        MPNetModel(MPNetConfig(**sizes, max_position_embeddings=positions + 2, pad_token_id=0)).save_pretrained(
            str(path))
    else:
        BertModel(BertConfig(**sizes, max_position_embeddings=positions)).save_pretrained(str(path))
    return path
