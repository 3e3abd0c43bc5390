"""Assert exactly which RSTKitWarnings a block raises, instead of silencing them."""
from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from rstkit.errors import RSTKitWarning


@contextmanager
def warns_exactly(expected: dict[str, int | None]) -> Iterator[list[str]]:
    """Record the block's RSTKitWarnings; each must match one pattern of ``expected`` (a regex searched
    in the message), and each pattern must match exactly its count of them (``None``: any number, for
    blocks run on generated inputs). Other warnings pass through to the caller's filters."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RSTKitWarning)
        messages: list[str] = []
        yield messages
    others = [w for w in caught if not issubclass(w.category, RSTKitWarning)]
    for w in others:  # re-raise under the caller's filters (pytest's, for instance)
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    messages.extend(str(w.message) for w in caught if issubclass(w.category, RSTKitWarning))
    counts: Counter[str] = Counter()
    unexpected = []
    for message in messages:
        matched = [p for p in expected if re.search(p, message)]
        if len(matched) != 1:
            unexpected.append(message)
        else:
            counts[matched[0]] += 1
    assert not unexpected, f"warnings matching no (or several) expected patterns: {unexpected}"
    exact = {p: n for p, n in expected.items() if n is not None}
    assert {p: counts[p] for p in exact} == exact, (
        f"expected {expected}, got {dict(counts)}: {messages}")


#: GUM's one wrong extent (lisp_nary), repaired when read with lenient=True
GUM_EXTENT_QUIRK = (r"GENTLE_syllabus_techtonica\.dis:60: declares \(span 49 266\) over children covering 22-266; "
                    r"repaired from the leaves \(lenient\)")
#: a corpus with one-EDU documents (the sample has sample_note), scored or excluded
ONE_EDU = r"one-EDU document\(s\) (scored with 0 tuples|excluded from the averages)"
#: relation labels of gold and prediction that do not meet (rstkit.metrics.relations.LabelSets): generated pairs
#: with labels drawn at random may have such labels, on a handful of tuples
LABEL_SETS = r"^(rst-parseval|parseval|dependency): the relation labels of gold and .+ do not meet: "
