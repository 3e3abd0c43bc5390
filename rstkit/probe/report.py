"""The probe's text and JSON reports."""
from __future__ import annotations

import json

from .discoeval import DiscoEvalResult


def to_json(result: DiscoEvalResult) -> str:
    """The result as JSON (its :meth:`~DiscoEvalResult.as_dict`)."""
    return json.dumps(result.as_dict(), indent=2)


def to_text(result: DiscoEvalResult) -> str:
    """Sizes and accuracy per split, the classifier chosen, accuracy per label, the signature."""
    dev, test = result.dev, result.test
    lines = [
        f"{'split':<6} {'docs':>5} {'EDUs':>7} {'instances':>10} {'accuracy':>9}",
        (f"{'train':<6} {result.train['n_documents']:>5} {result.train['n_edus']:>7} "
         f"{result.train['n_instances']:>10} {'':>9}"),
    ]
    for split in (dev, test):
        lines.append(f"{split.name:<6} {split.n_documents:>5} {split.n_edus:>7} {split.n_instances:>10} "
                     f"{split.accuracy:>9.2f}")
    if result.chosen_c is not None:
        grid = ", ".join(f"C={c:g}: {a:.2f}" for c, a in result.dev_accuracy_by_c.items())
        lines.append(f"classifier selected on dev: C={result.chosen_c:g}  ({grid})")
    lines.append("")
    lines.append(f"{'label':<24} {'dev n':>6} {'dev acc':>8} {'test n':>7} {'test acc':>9}")
    for label in sorted(set(dev.per_label) | set(test.per_label)):
        cells = []
        for split in (dev, test):
            correct, total = split.per_label.get(label, (0, 0))
            cells.append((total, f"{100 * correct / total:.1f}" if total else "-"))
        lines.append(f"{label:<24} {cells[0][0]:>6} {cells[0][1]:>8} {cells[1][0]:>7} {cells[1][1]:>9}")
    lines.append("")
    lines.append(result.signature)
    return "\n".join(lines)
