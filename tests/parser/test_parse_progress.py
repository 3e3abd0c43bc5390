"""No silent waits in ``rstkit parse``: reading or segmenting the inputs, the encoder's features and the
decoding report their progress off a terminal as a line every few seconds, the decoding in transitions
(so a batch of long documents reports as it goes). The clocks here are fake (each reading a fixed step
later), so every line is derived by hand."""
from __future__ import annotations

from functools import partial

import pytest

pytest.importorskip("torch")
pytest.importorskip("tqdm")

from rstkit import progress
from tests.support.cli_run import run_main


def stepping_clock(step: float):
    """A clock that reads ``step`` seconds more at each reading, from 0."""
    now = [-step]

    def clock() -> float:
        now[0] += step
        return now[0]
    return clock


@pytest.fixture
def fake_clocks(monkeypatch):
    """Each Progress of the parse path gets a clock of its own, 3 s a reading."""
    def make(*args, **kwargs):
        return progress.Progress(*args, **kwargs, clock=stepping_clock(3.0))
    for module in ("rstkit.parser.inputs", "rstkit.parser.api", "rstkit.parser.decode"):
        monkeypatch.setattr(f"{module}.Progress", make)


def test_parse_reports_every_phase_off_a_terminal(tmp_path, capsys, fake_clocks):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("One .\nTwo .\nThree .\nFour .\n")  # 4 EDUs: 4 shifts, 3 reduces
    (folder / "b.txt").write_text("One .\nTwo .\nThree .\nFour .\nFive .\nSix .\n")  # 6 EDUs: 11 transitions
    status, err = run_main(["parse", str(folder), str(tmp_path / "out"), "--model", "scratch", "--segmenter", "none",
                            "-v"], capsys)
    assert status == 0, err
    lines = [line for line in err.splitlines() if line.startswith(("read:", "features:", "parse:"))]
    # readings at 3, 6, ... s after each Progress starts (0 s); a line when 5 s have passed, then 5 s apart.
    # read and features: 2 items, done at 3 s and 6 s: one line at 6 s. Decoding, 18 transitions in one batch:
    # steps 1-7 advance both documents (2 each), steps 8-11 only b; step k is read at 3k s: lines at steps 2
    # (4 done, 6 s), 4 (8, 12 s), 6 (12, 18 s), 8 (14 + 1, 24 s) and 10 (14 + 3, 30 s)
    assert lines == ["read: 2/2 file (6s)", "features: 2/2 doc (6s)",
                     "parse: 4/18 transition (6s)", "parse: 8/18 transition (12s)", "parse: 12/18 transition (18s)",
                     "parse: 15/18 transition (24s)", "parse: 17/18 transition (30s)"]
    assert err.splitlines()[-1].startswith("rstkit: parse: exit status 0, ")  # -v's last line: the command's times


def test_quiet_parse_reports_nothing(tmp_path, capsys, fake_clocks):
    (tmp_path / "a.txt").write_text("One .\nTwo .\nThree .\nFour .\n")
    status, err = run_main(["parse", str(tmp_path / "a.txt"), str(tmp_path / "out"), "--model", "scratch",
                            "--segmenter", "none", "-q"], capsys)
    assert status == 0 and err == ""


def test_segmenting_plain_text_is_reported_as_segment(monkeypatch, tmp_path, capsys):
    from rstkit.parser.inputs import read_parse_inputs
    from rstkit.segment.result import build_segmentation
    from rstkit.segment.tokenizer import paragraphs, tokenize

    class Sentences:  # a segmenter that makes each token run up to a full stop one EDU
        def segment(self, text):
            tokens = [t for start, end in paragraphs(text) for t in tokenize(text, start, end)]
            starts = [0] + [i + 1 for i, (s, e) in enumerate(tokens[:-1]) if text[s:e] == "."]
            return build_segmentation(text, tokens, starts, starts, [0])

    lines = []
    stream = type("Log", (), {"write": lambda self, text: lines.append(text), "flush": lambda self: None})()
    monkeypatch.setattr("rstkit.parser.inputs.Progress", partial(progress.Progress, enabled=True, stream=stream,
                                                                   clock=stepping_clock(3.0)))
    for name in "abc":
        (tmp_path / f"{name}.txt").write_text("It rained. We stayed home.\n")
    documents = read_parse_inputs(tmp_path, segmenter=Sentences())
    assert [len(d.edus) for d in documents] == [2, 2, 2]
    # three files read at 3, 6, 9 s: one line at 6 s
    assert lines == ["segment: 2/3 file (6s)\n"]


def test_segmenting_a_long_text_reports_as_it_goes(monkeypatch):
    """One long text is one file: the segmenter reports its tokens, a batch of windows at a time."""
    from rstkit.segment.segmenter import Segmenter

    lines = []
    stream = type("Log", (), {"write": lambda self, text: lines.append(text), "flush": lambda self: None})()
    monkeypatch.setattr("rstkit.segment.segmenter.Progress", partial(progress.Progress, stream=stream,
                                                                     clock=stepping_clock(3.0)))
    segmenter = Segmenter.load("segmenter-base")
    segmenter.window, segmenter.margin, segmenter.batch_size = 4, 1, 1  # one window of 4 tokens a batch
    with progress.shown():
        segmenter.segment(" ".join("abcdefghijklmnopqrst"))  # 20 one-letter tokens: 5 batches
        # batches done at 3, 6, 9, 12, 15 s (4 tokens each): lines at 6 s (8 tokens) and 12 s (16 tokens)
        assert lines == ["segment: 8/20 token (6s)\n", "segment: 16/20 token (12s)\n"]
        segmenter.batch_size = 5  # the 5 windows in one batch: one step, not reported even when it is slow
        monkeypatch.setattr("rstkit.segment.segmenter.Progress", partial(progress.Progress, stream=stream,
                                                                         clock=stepping_clock(10.0)))
        lines.clear()
        segmenter.segment(" ".join("abcdefghijklmnopqrst"))
        assert lines == []
