"""The probe's signature: every setting that changes a DiscoEval accuracy, on one line."""
from __future__ import annotations

from .._version import __version__
from .task import LABEL_CASE, ProbeTask


def signature(task: ProbeTask, encoder: str, classifier: str, seed: int) -> str:
    """Every setting that changes a DiscoEval accuracy, sacrebleu-style."""
    splits = task.splits
    probed = classifier != "majority"
    masked = sum(len(v) for v in task.excluded.values())
    parts = [
        ("task", "discoeval-rst"),
        ("corpus", task.corpus),
        ("docs", "/".join(str(splits[s].n_documents) for s in ("train", "dev", "test"))),
        ("inst", "/".join(str(len(splits[s].instances)) for s in ("train", "dev", "test"))),
        ("masked", f"excluded:{masked}" if masked else "none-excluded"),
        ("bin", "right"),
        ("labels", f"nuc+{task.label_map}:{LABEL_CASE}"),
        ("encoder", encoder),
        ("subtree", "mean" if probed else "none"),
        ("features", "l;r;l*r;abs(l-r)" if probed else "none"),
        ("clf", classifier),
        ("seed", str(seed)),
        ("version", __version__),
    ]
    return "rstkit:" + "|".join(f"{k}={v}" for k, v in parts)
