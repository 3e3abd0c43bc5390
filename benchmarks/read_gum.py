"""Reading all 281 GUM documents in each form, now and with the readers replaced, side by side.

Each reader reads every file of its form, in turn (dis, rs4, rs4 previous, rsd, rsd previous),
three times; the best time of each is printed. ``--paused-gc`` pauses the cyclic garbage
collector, as :func:`rstkit.corpus.files.read_files` (every corpus read) does. The previous
rs3/rsd readers are the copies kept as a baseline in benchmarks/baseline_readers.py; the ``.dis`` files are
read with ``lenient=True`` (GUM has one wrong extent).

Run: ``RSTKIT_GUM=/path/to/gum python benchmarks/read_gum.py [--paused-gc]``
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import baseline_readers
from rstkit.formats import read_text
from rstkit.formats.dis import read_dis
from rstkit.formats.rs3 import read_rs3
from rstkit.formats.rsd import read_rsd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paused-gc", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    gum = Path(os.environ.get("RSTKIT_GUM", "../shared/corpora/gum"))
    forms: dict[str, tuple[str, Callable[[Path], object]]] = {
        "dis lisp_nary": ("lisp_nary/*.dis", lambda p: read_dis(p, lenient=True)),
        "dis lisp_binary": ("lisp_binary/*.dis", lambda p: read_dis(p, lenient=True)),
        "rs4": ("rstweb/*.rs4", read_rs3),
        "rs4, previous reader": ("rstweb/*.rs4", lambda p: baseline_readers.loads_rs3(read_text(p), p)),
        "rsd": ("dependencies/*.rsd", read_rsd),
        "rsd, previous reader": ("dependencies/*.rsd", lambda p: baseline_readers.loads_rsd(read_text(p), p)),
    }
    files = {form: sorted(gum.glob(pattern)) for form, (pattern, _) in forms.items()}
    warnings.simplefilter("ignore")
    if args.paused_gc:
        gc.disable()
    best = dict.fromkeys(forms, float("inf"))
    for _ in range(args.runs):
        for form, (_, read) in forms.items():
            started = time.perf_counter()
            for path in files[form]:
                read(path)
            best[form] = min(best[form], time.perf_counter() - started)
    for form in forms:
        print(f"{form:<22} {len(files[form])} files  {best[form]:.3f} s (best of {args.runs})")
    for form in ("rs4", "rsd"):
        print(f"{form}: {best[form + ', previous reader'] / best[form]:.1f}x faster than the previous reader")
    print(f"cyclic GC {'paused' if args.paused_gc else 'on'}; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
