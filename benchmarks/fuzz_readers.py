"""The large fuzzing run over all registered readers (the suite runs a bounded one: tests/formats/test_fuzz_readers.py).

    python benchmarks/fuzz_readers.py --cases 10000 [--seed 1] [--gum PATH] [--json findings.json]

``--cases`` is the total, spread evenly over the readers. Each finding (an exception other than an
RSTKitError naming the file, or no tree returned) is shrunk to a small reproducer and printed
with the reader's module; the exit status is 1 when there is any.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from rstkit.formats import all_formats

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))  # the fuzzing helpers the suite's bounded run shares
from tests.support.fuzzing import reader_of, run, seeds, shrink  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10000, help="total number of cases (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gum", type=Path,
                        default=Path(os.environ.get("RSTKIT_GUM", PROJECT.parent / "shared" / "corpora" / "gum")))
    parser.add_argument("--json", type=Path, default=None, help="write the findings here")
    args = parser.parse_args(argv)
    seed_sets = seeds(args.gum if (args.gum / "lisp_nary").is_dir() else None, gum_docs=8)
    per_reader = max(1, -(-args.cases // len(all_formats())))
    started = time.perf_counter()
    outcome = run(seed_sets, per_reader, args.seed)
    elapsed = time.perf_counter() - started
    total = sum(outcome.cases.values())
    print(f"{total} cases over {len(outcome.cases)} readers ({per_reader} each, seed {args.seed}) in {elapsed:.0f} s; "
          f"{len(outcome.findings)} finding(s); {len(outcome.slow)} case(s) slower than 2 s")
    distinct: dict[tuple[str, str], object] = {}
    for finding in outcome.findings:
        distinct.setdefault((finding.key, finding.error.split(":")[0]), finding)
    report = []
    for (key, kind), finding in sorted(distinct.items()):
        small = shrink(key, finding.seed, finding.data, "lenient" in finding.mutations)
        count = sum(1 for f in outcome.findings if (f.key, f.error.split(":")[0]) == (key, kind))
        print(f"\n[{key}] ({reader_of(key)}) {count} case(s): {finding.error}\n  reproducer ({finding.seed}"
              f"{', lenient' if 'lenient' in finding.mutations else ''}): {small!r}")
        report.append({"format": key, "module": reader_of(key), "cases": count, "error": finding.error,
                       "file_name": finding.seed, "lenient": "lenient" in finding.mutations,
                       "reproducer": small.decode("utf-8", "backslashreplace")})
    for key, name, seconds in outcome.slow:
        print(f"slow: [{key}] {name}: {seconds:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({"cases": total, "seed": args.seed, "findings": report}, indent=2),
                             encoding="utf-8")
    return 1 if outcome.findings else 0


if __name__ == "__main__":
    sys.exit(main())
