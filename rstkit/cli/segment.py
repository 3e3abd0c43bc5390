"""``rstkit segment INPUT OUT``: split plain text into EDUs with rstkit's segmenter.

INPUT is a UTF-8 text file (paragraphs separated by blank lines), a DISRPT file, or a directory
of them (its ``.txt``, ``.tok`` and ``.conllu`` files, or those matching ``--glob``, searched
recursively, hidden files left out; each handled as that file alone would be). OUT is a file for a
file input (if OUT is an existing directory or ends with ``/``, the output goes there under
INPUT's name with the output extension) and a directory for a directory input (created if
needed; each input file gives one output file at the same relative path; two inputs that
would give the same output, ``a.txt`` and ``a.md``, are an error naming both). ``--to lines`` writes EDUs one per
line with a blank line between paragraphs (``.edus``); ``--to jsonl`` one JSON object
per EDU with its character offsets into the input, paragraph and sentence (``.jsonl``).

A DISRPT file (``.tok``, ``.conllu``, alone or in a directory) is segmented
on its own tokens (the sentences of a ``.conllu`` file begin EDUs) and written back as the same
file with only the ``Seg`` item of its last column changed (``Seg=B-seg`` or ``Seg=O``).

Every input is read and every output location checked before anything is segmented; the
files are written all or none. OUT may not overlap INPUT; an input is never overwritten, an
existing output only with ``--force``. Needs
torch; the default model also reads MiniLM (the ``minilm`` extra), ``--segmenter
segmenter-base`` needs nothing but torch. ``-`` reads the text from standard input, or writes the EDUs
to standard output.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from ..corpus import walk_input
from ..errors import ManyErrors, RSTKitError, RSTKitWarning
from ..extras import needs
from ..folders import not_regular
from ..formats.disrpt import DisrptFile, is_disrpt, read_disrpt, with_boundaries
from ..output import check_existing, check_names, check_target, wants_directory, write_files
from ..progress import Progress
from ..segment.tokenizer import read_plain_text
from .common import (
    STREAM,
    add_jobs_option,
    add_output_option,
    info,
    output_name,
    output_path,
    positive_int,
    refuse_unused,
    remember_defaults,
    stdin_as_file,
)
from .engine import Job, add_engine_options, check_engine_options, run_on_dask

EXTENSIONS = {"lines": ".edus", "jsonl": ".jsonl"}
#: the files of a directory segmented without ``--glob``: plain text and DISRPT files
DEFAULT_GLOBS = ("*.txt", "*.tok", "*.conllu")


def add_parser(sub) -> None:
    p = sub.add_parser("segment", help="split plain text into EDUs (extra: parser)", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="a UTF-8 text file or a directory of them, or DISRPT .tok/.conllu files; "
                                 "-: text on standard input")
    p.add_argument("out", nargs="?", type=output_name,
                   help="output file (for a file) or directory (for a directory); -: standard output")
    add_output_option(p, "the EDUs (the same as OUT)", "OUT")
    p.add_argument("--to", dest="format", choices=sorted(EXTENSIONS), default=None,
                   help="lines: EDUs one per line (default); jsonl: one JSON object per EDU with offsets (for plain "
                        "text: DISRPT files are written back in their own format)")
    p.add_argument("--glob", default=None,
                   help="which files of a directory to segment (default: *.txt, *.tok and *.conllu; each .tok and "
                        ".conllu file is read as DISRPT, any other as plain text)")
    p.add_argument("--segmenter", dest="model", default=None, metavar="NAME|DIR",
                   help="segmenter model directory, or the name of a shipped model: segmenter (the default; reads "
                        "MiniLM, extra: minilm) or segmenter-base (needs nothing but torch)")
    add_jobs_option(p, "CPU threads for torch (default: torch's)")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    add_engine_options(p)
    p.add_argument("--batch-size", dest="batch_docs", type=positive_int, default=8, metavar="N",
                   help="with --engine dask: files per task (default: 8)")
    p.set_defaults(run=run)
    remember_defaults(p)


def plan(input_path: Path, out: Path, extension: Callable[[Path], str], patterns: Sequence[str], force: bool,
         into_folder: bool = False) -> tuple[dict[str, Path], bool]:
    """``{output name: input file}`` and whether OUT is a folder (else the one output file), after
    checking every output location (``extension``: of each input's output; ``patterns``: the files of a
    directory that are inputs; ``into_folder``: OUT was written with a trailing slash)."""
    if input_path.is_dir():
        inputs = [p for p in walk_input(input_path) if any(p.relative_to(input_path).match(g) for g in patterns)]
        if not inputs:
            shown = " or ".join(map(repr, patterns))
            raise RSTKitError(f"no files matching {shown} in the directory", str(input_path))
        if out.exists() and not out.is_dir():
            raise RSTKitError("the input is a directory, so the output must be a directory, not a file", str(out))
        check_target(out, directory=True, inputs=[input_path])
        names = [(p.relative_to(input_path).with_suffix(extension(p)).as_posix(), p) for p in inputs]
        check_names(((name, str(p)) for name, p in names), str(out), nested=True)
        files = dict(names)
    elif input_path.is_file():
        if out.is_dir() or into_folder:
            files = {input_path.stem + extension(input_path): input_path}
            check_target(out, directory=True, inputs=[input_path])
            check_names([(name, str(input_path)) for name in files], str(out))
        else:
            check_target(out, directory=False, inputs=[input_path])
            if out.exists() and out.is_file() and not force:
                raise RSTKitError("the output file exists", str(out), fixes=("force",))
            return {out.name: input_path}, False
    else:
        raise not_regular(input_path) if input_path.is_symlink() or input_path.exists() else RSTKitError(
            "no such file or directory", str(input_path))
    check_existing(out, files, force=force, inputs=[input_path])
    return files, True


def _to_unused(where: str) -> RSTKitError:
    return RSTKitError("--to is for plain text: DISRPT files are written back as they are, with their "
                       "last column segmented", where)


def _raise(errors: list[RSTKitError]) -> None:
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ManyErrors(errors)


def render(segmentation, fmt: str) -> str:
    if fmt == "lines":
        return segmentation.lines()
    return "".join(json.dumps({"start": e.start, "end": e.end, "paragraph": e.paragraph, "sentence": e.sentence,
                               "text": e.text}, ensure_ascii=False) + "\n" for e in segmentation.edus)


def run(args: argparse.Namespace) -> int:
    output = output_path(args.out, args.output, "OUT")
    with stdin_as_file(args.input, None) as given:
        return _segment(Path(given), output, args)


def _segment(source_path: Path, output: str, args: argparse.Namespace) -> int:
    check_engine_options(args)
    if args.engine != "dask":
        refuse_unused(args, ("batch_docs",), "needs --engine dask")
    if not source_path.is_dir():
        refuse_unused(args, ("glob",), "picks the files of a directory; INPUT is one file")
        if args.engine == "dask":
            raise RSTKitError("--engine dask segments the files of a directory; INPUT is one file", args.input)
    to_stdout = output == STREAM
    out = Path(output)

    def disrpt(source: Path) -> bool:  # standard input is plain text, whatever its temporary file is named
        return args.input != STREAM and is_disrpt(source.name)

    def extension(source: Path) -> str:
        return source.suffix if disrpt(source) else EXTENSIONS[args.format or "lines"]

    if source_path.is_file() and disrpt(source_path) and args.format is not None:
        raise _to_unused(args.input)
    if to_stdout:
        if not source_path.is_file():
            raise RSTKitError("a directory's EDUs cannot go to standard output (-): name a directory", args.input)
        files: dict[str, Path] = {"-": source_path}
        into_folder = False
    else:
        files, into_folder = plan(source_path, out, extension, DEFAULT_GLOBS if args.glob is None else (args.glob,),
                                  args.force or args.resume, wants_directory(output))
        if args.format is not None and all(map(disrpt, files.values())):
            raise _to_unused(args.input)
    texts: dict[Path, str | DisrptFile] = {}
    errors = []
    for source in files.values():
        try:
            texts[source] = read_disrpt(source) if disrpt(source) else read_plain_text(source)
        except RSTKitError as exc:
            errors.append(exc)
    _raise(errors)
    if args.engine == "dask":
        return _segment_on_dask(args, files, texts, out)
    try:
        from ..segment.segmenter import Segmenter
    except ImportError as exc:
        raise RSTKitError(needs("rstkit segment", exc.name or "the parser extra", extra="parser")) from None
    started = time.perf_counter()
    segmenter = Segmenter.load(args.model, threads=args.jobs)
    loaded = time.perf_counter()
    written, edus = {}, 0
    with Progress(len(files), "segment", "file") as bar:
        for name, source in files.items():
            text = texts[source]
            if isinstance(text, DisrptFile):
                from ..segment.disrpt import segment_document

                boundaries = {d.doc_id: segment_document(segmenter, d) for d in text.documents}
                edus += sum(sum(starts) for starts in boundaries.values())
                written[name] = with_boundaries(text, boundaries)
            else:
                if not text.strip():
                    warnings.warn(f"{source}: no text (empty or only whitespace); its output is empty",
                                  RSTKitWarning, stacklevel=2)
                segmentation = segmenter.segment(text)
                edus += len(segmentation.edus)
                written[name] = render(segmentation, args.format or "lines")
            bar.update()
    if to_stdout:
        sys.stdout.write(written["-"])
    else:
        write_files(out, written, into_directory=into_folder, force=args.force, inputs=[Path(args.input)])
    info(f"{len(files)} file(s) segmented into {edus} EDUs (model loaded in {loaded - started:.1f}s, segmented in "
         f"{time.perf_counter() - loaded:.1f}s) -> {output if not to_stdout else 'standard output'}", "rstkit segment")
    return 0


def _segment_on_dask(args: argparse.Namespace, files: dict[str, Path], texts: dict, out: Path) -> int:
    """The files segmented on the cluster, ``--batch-size`` files a task."""
    from ..segment.distributed import SegmentTask, segment_batch

    names = list(files)
    sources = [files[name] for name in names]

    def rendered(i: int, value) -> str:
        text = texts[sources[i]]
        return with_boundaries(text, value) if isinstance(text, DisrptFile) else render(value, args.format or "lines")

    job = Job("rstkit segment", "file", names, [f"file {source}" for source in sources],
              [list(range(start, min(start + args.batch_docs, len(names))))
               for start in range(0, len(names), args.batch_docs)],
              segment_batch, args.model, lambda i: SegmentTask(names[i], texts[sources[i]]), rendered)
    return run_on_dask(args, job, out, [Path(args.input)])
