"""Finding the corpus to probe: ``gum``, ``rstdt`` or a path.

``gum`` is the GUM checkout at ``$RSTKIT_GUM``, else ``../shared/corpora/gum`` relative to
the working directory; ``rstdt`` the RST-DT release at ``$RSTKIT_RSTDT``, else
``../shared/corpora/rstdt``. Any other value is a path: a GUM checkout (``splits.md`` and
``lisp_nary/``), an RST-DT release (``RSTtrees-WSJ-main-1.0``) or a directory of trees with
a ``splits.tsv`` naming train, dev and test documents.

Each kind of corpus has its label map: ``gum`` classes for GUM, the 18 ``rstdt18`` classes
for RST-DT, ``raw`` labels for a plain directory.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path

from ..corpus import Corpus, gum_corpus, open_corpus, rstdt_corpus
from ..errors import CorpusError, RSTKitWarning
from .task import ProbeTask

#: corpus name -> (environment variable, default location relative to the working directory)
NAMED_CORPORA = {
    "gum": ("RSTKIT_GUM", Path("..") / "shared" / "corpora" / "gum"),
    "rstdt": ("RSTKIT_RSTDT", Path("..") / "shared" / "corpora" / "rstdt"),
}

#: instances per split published with DiscoEval (its README), to check a corpus against
PUBLISHED_SIZES = {"rstdt": {"train": 17051, "dev": 2045, "test": 2308}}


def corpus_location(name: str) -> Path:
    """Where the named corpus is expected (the environment variable wins)."""
    variable, default = NAMED_CORPORA[name]
    return Path(os.environ[variable]) if os.environ.get(variable) else default


def resolve_corpus(spec: str) -> Corpus:
    """The corpus named or pointed to by ``spec``."""
    if spec in NAMED_CORPORA:
        location = corpus_location(spec)
        if not location.is_dir():
            variable = NAMED_CORPORA[spec][0]
            raise CorpusError(f"{spec} corpus not found; set {variable} to its directory or pass --corpus PATH",
                              str(location))
        return gum_corpus(location) if spec == "gum" else rstdt_corpus(location)
    return open_corpus(spec)


def default_label_map(corpus: Corpus) -> str:
    """The label map that gives a corpus its coarse classes."""
    if corpus.name.startswith("gum"):
        return "gum"
    if corpus.name == "rstdt":
        return "rstdt18"
    return "raw"


def check_published_sizes(task: ProbeTask) -> bool:
    """Warn when a corpus with published DiscoEval sizes gives other instance counts; True if they agree."""
    published = PUBLISHED_SIZES.get(task.corpus)
    if published is None:
        return True
    ours = {name: len(split.instances) for name, split in task.splits.items()}
    if ours == published:
        return True
    warnings.warn(f"{task.corpus}: {'/'.join(str(ours[s]) for s in published)} train/dev/test instances, "
                  f"DiscoEval published {'/'.join(f'{n:,}' for n in published.values())}: "
                  "an incomplete release, or other documents in the splits", RSTKitWarning, stacklevel=2)
    return False
