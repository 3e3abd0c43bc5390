"""The segmenter on DISRPT files: tokens as the file gives them, boundaries in its last column.

The tokens are glued into raw-looking text as GUM's are for training (:func:`rstkit.segment.gum.
detokenize`, one paragraph: DISRPT files carry no layout), the segmenter tags the file's own tokens
(``Segmenter.segment_tokens``), and every sentence start of a ``.conllu`` file begins an EDU too.
A token holding whitespace is read as one word (its whitespace removed) so the count is kept.
"""
from __future__ import annotations

from itertools import accumulate

from ..formats.disrpt import DisrptDocument
from ..tree import EDU
from .gum import detokenize


def segment_document(segmenter, document: DisrptDocument) -> list[bool]:
    """Whether each token of ``document`` begins an EDU, as ``segmenter`` (a loaded
    :class:`~rstkit.segment.segmenter.Segmenter`) decides."""
    if not document.tokens:
        return []
    starts = document.sentence_starts or (True,) + (False,) * (len(document.tokens) - 1)
    sentences = list(accumulate(int(s) for s in starts))
    words = ["".join(token.split()) or "_" for token in document.tokens]
    edus = [EDU(i, word, sentence=max(1, sentence), paragraph=1)
            for i, (word, sentence) in enumerate(zip(words, sentences), start=1)]
    text = detokenize(document.doc_id, edus, paragraphs=False)
    result = segmenter.segment_tokens(text.text, text.tokens, text.paragraph_starts)
    begins = {edu.start for edu in result.edus}
    sentence_starts = document.sentence_starts or (False,) * len(words)
    return [start in begins or sentence for (start, _), sentence in zip(text.tokens, sentence_starts)]
