"""Reading GUM's .rs4 and .rsd files with the readers of any checkout of rstkit, to compare versions.

Run one process per version, alternating, e.g. against the code of the day the speed issue was
opened (``git worktree add --detach /tmp/then 0901afd``)::

    for i in 1 2; do python benchmarks/read_gum_checkout.py /tmp/then --paused-gc
                     python benchmarks/read_gum_checkout.py . --paused-gc; done

Each version's ``read_rs3`` and ``read_rsd`` read all 281 files of their form, best of 3.
``--directory`` times instead what ``rstkit stats`` and the library do with a folder of files:
``rstkit.read_documents(folder)`` (every tree kept, the collector as the version leaves it).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import warnings
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="the root of a checkout of rstkit (holding rstkit/)")
    parser.add_argument("--paused-gc", action="store_true", help="pause the cyclic GC, as corpus reads do now")
    parser.add_argument("--directory", action="store_true", help="time rstkit.read_documents on each folder")
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))
    import rstkit
    from rstkit.formats.rs3 import read_rs3
    from rstkit.formats.rsd import read_rsd

    gum = Path(os.environ.get("RSTKIT_GUM", "../shared/corpora/gum"))
    warnings.simplefilter("ignore")
    if args.paused_gc:
        gc.disable()
    for form, pattern, read in (("rs4", "rstweb/*.rs4", read_rs3), ("rsd", "dependencies/*.rsd", read_rsd)):
        files = sorted(gum.glob(pattern))
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            if args.directory:
                rstkit.read_documents(files[0].parent)
            else:
                for path in files:
                    read(path)
            best = min(best, time.perf_counter() - started)
        how = "read_documents(folder)" if args.directory else "reader per file"
        print(f"{Path(rstkit.__file__).parent.parent}: {form} {len(files)} files, {how}: {best:.3f} s "
              f"(GC {'paused' if args.paused_gc else 'on'}, load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
