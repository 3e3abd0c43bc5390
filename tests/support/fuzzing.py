"""A seeded mutation fuzzer for every registered reader (tests/formats/test_fuzz_readers.py,
benchmarks/fuzz_readers.py).

Seeds are real inputs: the GUM files themselves for ``dis``/``rs3``/``rs4``/``rsd`` and GUM trees
rendered with rstkit's writers for the parser formats (when the corpus is present), the
samples under ``parsers/`` and the real parser output under ``tests/data/real/``. A case takes
one seed, applies 1-5 mutations to its bytes (delete, duplicate, swap, truncate; brackets and
delimiters; whole lines; unicode, NUL, a byte-order mark, invalid UTF-8, huge numbers) and
reads the result with the format's reader. The contract: the reader returns trees, or raises
an :class:`RSTKitError` naming the file whose message shows unprintable characters escaped
(``rstkit.errors.printable``); anything else is a finding.
"""
from __future__ import annotations

import random
import re
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rstkit.corpus import read_documents, read_file
from rstkit.errors import ManyErrors, RSTKitError, RSTKitWarning
from rstkit.formats import all_formats, get_format
from tests.support.format_files import RENDERABLE, render

PROJECT = Path(__file__).resolve().parents[1].parent


@dataclass(frozen=True)
class Seed:
    key: str
    name: str  # file name the case is written under (the format's naming)
    data: bytes


@dataclass
class Finding:
    key: str
    seed: str
    mutations: list[str]
    data: bytes
    error: str


@dataclass
class Outcome:
    cases: dict[str, int] = field(default_factory=dict)
    parsed: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    slow: list[tuple[str, str, float]] = field(default_factory=list)


# -- seeds -------------------------------------------------------------------------------
_SAMPLES = {  # parsers/ samples and real output per format key
    "hilda": ["parsers/hilda/council.out.dis"], "surdeanu": ["parsers/surdeanu/log"],
    "surdeanu_native": ["parsers/surdeanu/council.dtree"], "codra": ["parsers/codra/council.doc_dis"],
    "feng": ["parsers/feng/council.out.tree", "tests/data/real/feng/market.txt.tree",
             "tests/data/real/feng/short.txt.tree"],
    "feng_dis": ["parsers/feng/council.txt.dis"], "braud_coling": ["parsers/braud_coling/0.mrg.pred"],
    "li_qi": ["parsers/li_qi/parsed_council.out"], "braud_eacl": ["parsers/braud_eacl/test_it8_beam16"],
    "dplp": ["parsers/dplp/council.out.brackets"], "dmrst": ["parsers/dmrst/council.dmrst"],
    "isanlp": ["parsers/isanlp/council.rs3"], "hilda_orig": ["parsers/hilda_orig/council.parsetree"],
    "dis": ["tests/data/formats/council.dis", "tests/data/formats/weather.dis"],
}
_GUM_FOLDERS = {"dis": ("lisp_nary", ".dis"), "rs3": ("rstweb", ".rs4"), "rs4": ("rstweb", ".rs4"),
                "rsd": ("dependencies", ".rsd")}


def seeds(gum: Path | None, gum_docs: int = 3) -> dict[str, list[Seed]]:
    """Seed inputs per format key: samples, real output and (when ``gum`` exists) the ``gum_docs``
    smallest GUM documents, as they are or rendered with rstkit's writers."""
    out: dict[str, list[Seed]] = {key: [] for key in all_formats()}
    for key, paths in _SAMPLES.items():
        out[key] += [Seed(key, Path(p).name, (PROJECT / p).read_bytes()) for p in paths]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)
        trees = list(read_documents(PROJECT / "tests" / "data" / "formats", "dis").values())
        if gum is not None and (gum / "lisp_nary").is_dir():
            names = sorted((gum / "lisp_nary").glob("*.dis"), key=lambda p: p.stat().st_size)[:gum_docs]
            ids = [p.stem for p in names]
            for key, (folder, ext) in _GUM_FOLDERS.items():
                out[key] += [Seed(key, f"{i}{ext}", (gum / folder / f"{i}{ext}").read_bytes()) for i in ids]
            out["rs3"] += [Seed("rs3", f"{i}.rs3", (gum / "rstweb" / f"{i}.rs4").read_bytes()) for i in ids]
            trees += [read_documents(gum / "lisp_nary" / f"{i}.dis", "dis", lenient=True)[i] for i in ids]
    for key, more in _rendered(trees).items():
        out[key] += more
    return out


def _rendered(trees: list) -> dict[str, list[Seed]]:
    """``trees`` (right-binarized) written in every format rstkit can write."""
    from rstkit.transform import binarize

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RSTKitWarning)
        trees = [binarize(t, "right") for t in trees]
        out: dict[str, list[Seed]] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for key in RENDERABLE:
                for tree in trees:
                    try:
                        path, _ = render(key, [tree], Path(tmp) / f"{key}-{tree.doc_id}")
                    except RSTKitError:  # a format that cannot hold this tree (isanlp)
                        continue
                    files = [path] if path.is_file() else sorted(path.iterdir())
                    out.setdefault(key, []).extend(Seed(key, f.name, f.read_bytes()) for f in files)
    return out


# -- mutations ---------------------------------------------------------------------------
_INSERTS = [b"(", b")", b"[", b"]", b"<", b">", b"\"", b"'", b"!", b"_!", b"!_", b"\t", b"\n", b"\r", b" ",
            b"\x00", b"\xef\xbb\xbf", b"\xff", b"\xc3", "é".encode(), "\u200b".encode(), "\U0001F600".encode(),
            "\u2028".encode(), b"\x1b[31m", b"&", b"<P>", b"<s>", b":", b",", b"=", b"-", b"#", b"\\",
            b"99999999999999999999", b"0", b"-1", b"NONE", b"span", b"Root", b"Nucleus", b"Satellite", b"[S][S]",
            b"[N]", b"SS", b"ParseTree(", b"TEXT:", b"(leaf 1)", b"(span 1 2)", b"<segment id=\"1\">", b"</rst>"]
_BRACKETS = re.compile(rb"[()\[\]<>{}\"']")
_NUMBER = re.compile(rb"\d+")


def _cut(rng: random.Random, data: bytes) -> tuple[int, int]:
    start = rng.randrange(len(data) + 1)
    return start, min(len(data), start + rng.randint(1, 16))


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def _delete(rng, data):
    a, b = _cut(rng, data)
    return data[:a] + data[b:], f"delete {a}:{b}"


def _duplicate(rng, data):
    a, b = _cut(rng, data)
    return data[:b] + data[a:b] + data[b:], f"duplicate {a}:{b}"


def _swap(rng, data):
    if len(data) < 2:
        return data, "swap (too short)"
    i, j = sorted(rng.sample(range(len(data)), 2))
    return data[:i] + data[j:j + 1] + data[i + 1:j] + data[i:i + 1] + data[j + 1:], f"swap {i},{j}"


def _truncate(rng, data):
    at = rng.randrange(len(data) + 1)
    return data[:at], f"truncate {at}"


def _insert(rng, data):
    at, piece = rng.randrange(len(data) + 1), rng.choice(_INSERTS)
    return data[:at] + piece + data[at:], f"insert {piece!r} at {at}"


def _bom(rng, data):
    return b"\xef\xbb\xbf" + data, "byte-order mark"


def _drop_bracket(rng, data):
    found = [m.start() for m in _BRACKETS.finditer(data)]
    if not found:
        return data, "drop bracket (none)"
    at = rng.choice(found)
    return data[:at] + data[at + 1:], f"drop bracket at {at}"


def _number(rng, data):
    found = list(_NUMBER.finditer(data))
    if not found:
        return data, "number (none)"
    m = rng.choice(found)
    new = rng.choice([b"0", b"1", b"2", b"-1", b"99999", b"18446744073709551617", str(rng.randint(0, 60)).encode()])
    return data[:m.start()] + new + data[m.end():], f"number {m.group()!r}->{new!r} at {m.start()}"


def _line_op(rng, data):
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.choice(["delete", "duplicate", "swap", "move"])
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return b"".join(lines), f"line {op} {i},{j}"


_TOKEN = re.compile(rb"[^\s()]+")


def _token(rng, data):
    found = list(_TOKEN.finditer(data))
    if len(found) < 2:
        return data, "token (none)"
    target, donor = rng.sample(found, 2)
    mutated = data[:target.start()] + donor.group() + data[target.end():]
    return mutated, f"token at {target.start()} <- {donor.group()[:20]!r}"


def _repeat(rng, data):
    a, b = _cut(rng, data)
    times = rng.choice([10, 100, 2000])
    return data[:a] + data[a:b] * times + data[b:], f"repeat {a}:{b} x{times}"


MUTATIONS: list[Callable[[random.Random, bytes], tuple[bytes, str]]] = [
    _delete, _duplicate, _swap, _truncate, _insert, _insert, _bom, _drop_bracket, _drop_bracket, _number,
    _line_op, _line_op, _token, _token, _repeat]


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    """``data`` after 1-5 random mutations, and what they were."""
    done = []
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        data, what = rng.choice(MUTATIONS)(rng, data)
        done.append(what)
    return data, done


# -- running -------------------------------------------------------------------------------
def check(key: str, name: str, data: bytes, directory: Path, lenient: bool = False) -> str | None:
    """Read ``data`` as file ``name`` in format ``key``; None when the contract holds, else what broke."""
    path = directory / name
    path.write_bytes(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RSTKitWarning)  # random bytes: any reader note may come
            trees = read_file(path, key, lenient=lenient)
    except ManyErrors as exc:
        bad = [e for e in exc.errors if e.path is None or not e.message.isprintable()]
        return f"ManyErrors member without a path or with unprintable text: {bad[0]!r}" if bad else None
    except RSTKitError as exc:
        if exc.path != str(path):
            return f"{type(exc).__name__} names {exc.path!r}, not the file: {exc}"
        if not exc.message.isprintable():
            return f"unprintable character in the message: {exc.message!r}"[:500]
        return None
    except Exception as exc:  # noqa: BLE001 -- anything else is what the fuzzer looks for
        return f"{type(exc).__name__}: {exc}"[:500]
    if not trees or any(t.n_edus < 1 for t in trees):
        return "returned no tree"
    return None


def cases(seed_sets: dict[str, list[Seed]], per_reader: int,
          rng: random.Random) -> Iterator[tuple[Seed, bytes, list[str], bool]]:
    """``per_reader`` mutated cases for each format key with seeds, round-robin over keys."""
    keys = sorted(k for k, s in seed_sets.items() if s)
    for _ in range(per_reader):
        for key in keys:
            seed = rng.choice(seed_sets[key])
            data, done = mutate(rng, seed.data)
            yield seed, data, done, rng.random() < 0.3


def run(seed_sets: dict[str, list[Seed]], per_reader: int, seed: int = 0, slow_after: float = 2.0) -> Outcome:
    """Fuzz every reader ``per_reader`` times with a fixed ``seed``."""
    rng = random.Random(seed)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        for case_seed, data, done, lenient in cases(seed_sets, per_reader, rng):
            key = case_seed.key
            started = time.perf_counter()
            problem = check(key, case_seed.name, data, Path(tmp), lenient)
            elapsed = time.perf_counter() - started
            outcome.cases[key] = outcome.cases.get(key, 0) + 1
            if elapsed > slow_after:
                outcome.slow.append((key, case_seed.name, elapsed))
            if problem is None:
                continue
            outcome.findings.append(Finding(key, case_seed.name, done + ([] if not lenient else ["lenient"]),
                                            data, problem))
    return outcome


def shrink(key: str, name: str, data: bytes, lenient: bool, budget: float = 20.0) -> bytes:
    """A smaller input that still breaks the contract (greedy removal of lines, then of byte runs)."""
    deadline = time.perf_counter() + budget
    with tempfile.TemporaryDirectory() as tmp:
        def fails(candidate: bytes) -> bool:
            return check(key, name, candidate, Path(tmp), lenient) is not None

        for splitter in (lambda d: _lines(d), lambda d: [d[i:i + 1] for i in range(len(d))]):
            parts = splitter(data)
            size = max(1, len(parts) // 2)
            while size >= 1 and time.perf_counter() < deadline:
                i, changed = 0, False
                while i < len(parts) and time.perf_counter() < deadline:
                    candidate = parts[:i] + parts[i + size:]
                    if candidate and fails(b"".join(candidate)):
                        parts, changed = candidate, True
                    else:
                        i += size
                if not changed:
                    size //= 2
            data = b"".join(parts)
    return data


def reader_of(key: str) -> str:
    return get_format(key).read.__module__
