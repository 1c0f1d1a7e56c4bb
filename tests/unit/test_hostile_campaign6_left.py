"""What campaign 6 found on inputs and results and left open (issue 30): a file swapped for a FIFO between a look
and an open, the quarantine's reason file written in place, the picker's unreadable folders named raw, ``check
--variants`` unbounded, an action log's line ends and encoding, two rescores at once, and a summary table for
thousands of trainees. Each case with the right behaviour."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from locations import TESTS

DRILL = TESTS.parent / "drills" / "api-dns-cutover.yaml"


# 1. A file swapped for a FIFO between a look at its path and the open is refused on the open file, never waited on


def _finishes(call: Callable[[], Any], fifo: Path) -> Any:
    """What ``call`` returns or raises, run in a thread given 10 s: a read waiting on ``fifo`` for a writer fails the
    test (the thread is then let go by opening the FIFO for writing)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as exc:  # handed to the test
            out["raised"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # lets the blocked open go
        thread.join(5)
        pytest.fail(f"reading {fifo} waited for a writer")
    if "raised" in out:
        raise out["raised"]
    return out.get("value")


@pytest.fixture
def swapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A FIFO with no writer at a path that a look (``os.stat``) still sees as the regular file it was: the world
    where a file is swapped for a FIFO between the look and the open."""
    fifo = tmp_path / "drill.yaml"
    os.mkfifo(fifo)
    real_stat = os.stat
    regular = real_stat(DRILL)

    def looked(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return regular if os.fspath(path) == os.fspath(fifo) else real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", looked)
    assert stat.S_ISREG(Path(fifo).stat().st_mode)  # the look is fooled
    return fifo


def test_the_drill_loader_refuses_a_file_swapped_for_a_fifo_on_the_open_file(swapped: Path):
    from warroom.core.load import DrillLoadError, load_drill

    with pytest.raises(DrillLoadError) as caught:
        _finishes(lambda: load_drill(swapped), swapped)
    assert str(caught.value.problems[0]) == f"{swapped}:1:1: this is a FIFO, not a drill file (only regular files " \
                                            "are read)"


def test_read_limited_refuses_a_file_swapped_for_a_fifo_naming_what_it_is(swapped: Path):
    from warroom.core.files import SpecialFile, read_limited

    with pytest.raises(SpecialFile) as caught:
        _finishes(lambda: read_limited(swapped, 1024), swapped)
    assert caught.value.kind == "a FIFO"
    assert str(caught.value) == f"{swapped} is a FIFO, not a regular file"


def test_score_refuses_an_action_log_swapped_for_a_fifo(swapped: Path):
    from warroom.cli.score import LogRefused, read_log

    with pytest.raises(LogRefused) as caught:
        _finishes(lambda: read_log(os.fspath(swapped)), swapped)
    assert str(caught.value) == f"{swapped}: is a FIFO, not a log file"


def test_annotate_and_project_refuse_a_drill_swapped_for_a_fifo(swapped: Path):
    from warroom.core.author import AnnotateError
    from warroom.core.author._annotatefile import _read
    from warroom.core.projection import ProjectionError, read_source

    with pytest.raises(AnnotateError) as annotate:
        _finishes(lambda: _read(swapped), swapped)
    assert str(annotate.value) == f"{swapped}: this is a FIFO, not a drill file (only regular files are read)"
    with pytest.raises(ProjectionError) as project:
        _finishes(lambda: read_source(swapped), swapped)
    assert str(project.value) == f"{swapped}:1:1: this is a FIFO, not a drill file (`--all FOLDER` projects a folder)"


def test_a_drill_set_look_at_a_file_swapped_for_a_fifo_says_not_a_set(swapped: Path):
    from warroom.core.load import is_drill_set_file

    assert _finishes(lambda: is_drill_set_file(swapped), swapped) is False


def test_store_import_refuses_an_export_swapped_for_a_fifo_instead_of_waiting(swapped: Path, tmp_path: Path):
    """``warroom store import`` reads a FIFO named as one as a stream (a pipe), but a file that was regular at the
    look and is a FIFO at the open is refused on the open file, not waited on."""
    from click.testing import CliRunner

    from warroom.cli import main

    result = _finishes(lambda: CliRunner().invoke(
        main, ["store", "import", "--all-trainees", str(swapped), "--data-dir", str(tmp_path / "data")]
    ), swapped)
    assert result.exit_code == 1
    assert f"cannot read {swapped}: {swapped} is a FIFO, not an export file" in result.output


# 2. The quarantine's reason file is written whole or not at all


def test_a_quarantine_whose_reason_file_cannot_be_written_leaves_no_part_of_it_and_the_journal_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A full disk while the reason (``NAME.why.txt``) was written left a reason file cut short (``write_text``, in
    place) beside a journal that was never moved. Now it is the atomic write: no reason file, no temporary file,
    the journal where it was, and the message says why."""
    import errno
    import json

    from store_support import bundled_drill_path, load

    from warroom.core.model import Action, ActionKind
    from warroom.store.journal import SessionRecorder, recover_unfinished

    path = bundled_drill_path()
    rec = SessionRecorder.start(tmp_path, "ann", path, load(path))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()
    journal = rec.journal_path
    lines = journal.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), "trainee": None})  # a start line never recoverable: quarantined
    journal.write_text("\n".join(lines) + "\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    (r,) = recover_unfinished(tmp_path)
    quarantine = tmp_path / "journals" / "quarantine"
    assert not r.quarantined and journal.exists() and r.journal == journal
    assert sorted(p.name for p in quarantine.iterdir()) == []  # no reason file, whole or part, nor its temporary
    assert r.error.endswith(f"it could not be quarantined (No space left on device); it was left in place: {journal}")
    monkeypatch.undo()
    (again,) = recover_unfinished(tmp_path)
    why = quarantine / f"{journal.name}.why.txt"
    assert again.quarantined and why.read_text() == again.error.split("\n")[0] + "\n"


# 3. The picker names a drill folder it cannot read escaped, as every other message does


async def test_the_picker_names_an_unreadable_drill_folder_with_a_newline_and_an_esc_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A drill folder named ``ops\\n\\x1b[2JX: forged`` that cannot be listed: its entry's problem printed the name
    raw, so its newline made a forged line in the preview. Now it reads ``\\x0a`` and ``\\x1b``, as every message."""
    from screen_support import screen_text
    from textual.clock import MockClock
    from textual.widgets import DataTable

    import warroom.core.library as library
    from warroom.tui.app import WarroomApp
    from warroom.tui.logic import Services

    folder = tmp_path / "ops\n\x1b[2JX: forged"
    folder.mkdir()
    real = library.find_drill_files

    def unreadable(paths: Any, *args: Any, **kwargs: Any) -> Any:
        if Path(next(iter(paths))) == folder:
            raise PermissionError(13, "Permission denied", str(folder))
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(library, "find_drill_files", unreadable)
    shown = f"{tmp_path}/ops\\x0a\\x1b[2JX: forged"
    app = WarroomApp(Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(folder,)), clock=MockClock())
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        picker = app.screen
        row = next(i for i, e in enumerate(picker.entries) if e.path == folder)  # type: ignore[attr-defined]
        assert picker.entries[row].problems == (f"{shown}: cannot read this folder (permission denied)",)  # type: ignore[attr-defined]
        picker.query_one("#picker-table", DataTable).move_cursor(row=row)
        await pilot.pause()
        text = screen_text(app)
    assert f"{shown}: cannot read this folder (permission denied)" in text
    assert "⚠ ops\\x0a\\x1b[2JX: forged" in text  # its row in the list
    assert not any(line.lstrip("│ ").startswith("X: forged") for line in text.splitlines())  # no forged line


# 4. warroom check --variants N is bounded


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("100000000", "Error: Invalid value for '--variants': 100,000,000 seeds is more than the 1,000 one run checks: "
                      "each seed plays the whole battery of scripted trainees (about 0.1 s a seed on the largest "
                      "bundled drill, for each drill checked); give --variants 1000 or fewer"),
        ("1001", "Error: Invalid value for '--variants': 1,001 seeds is more than the 1,000 one run checks"),
        ("1e9", "Error: Invalid value for '--variants': '1e9' is not a valid integer."),
        ("-1", "Error: Invalid value for '--variants': -1 is not a number of seeds; give 0 (none) to 1000"),
    ],
)
def test_check_refuses_more_variants_than_it_can_play_saying_the_limit_and_what_to_do(given: str, message: str):
    """``warroom check --variants 100000000`` ran for ever (no upper bound). Now over 1,000 is refused (exit 2)."""
    from click.testing import CliRunner

    from warroom.cli import main

    result = CliRunner().invoke(main, ["check", str(TESTS.parent / "drills" / "clickstream-backfill.yaml"),
                                       "--variants", given])
    assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output


def test_check_plays_the_most_variants_it_allows(monkeypatch: pytest.MonkeyPatch):
    """``--variants 1000`` is accepted: the check runs, with the 1,000 seeds (the play itself is stubbed here)."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.cli.author import _check

    seen: list[int] = []

    def one(path: Path, drill: Any, problems: Any, own: Any, *, text: bool, variants: int) -> tuple[dict, list[str]]:
        seen.append(variants)
        return {"file": str(path), "passed": True}, []

    monkeypatch.setattr(_check, "_check_one", one)
    result = CliRunner().invoke(main, ["check", str(TESTS.parent / "drills" / "clickstream-backfill.yaml"),
                                       "--variants", "1000"])
    assert seen == [_check.MAX_CHECK_VARIANTS] == [1000], result.output


# 5. An action log's CR-only line ends and non-UTF-8 bytes: the cause and what to do, at file:line:col

SCORED = TESTS / "fixtures" / "all-clear" / "clickstream-backfill.yaml"  # an all-clear drill


@pytest.mark.parametrize("from_stdin", [False, True])
def test_score_refuses_a_log_with_cr_only_line_ends_naming_the_cause_and_the_fix(tmp_path: Path, from_stdin: bool):
    """A log whose lines end in CR alone read as one line, refused with JSON's "Extra data" at line 1."""
    from click.testing import CliRunner

    from warroom.cli import main

    data = b'{"t": 1.0, "kind": "inspect", "event": "e01"}\r{"t": 2.0, "kind": "pause"}\r'
    log = tmp_path / "cr.jsonl"
    log.write_bytes(data)
    name = "-" if from_stdin else str(log)
    result = CliRunner().invoke(main, ["score", str(SCORED), name], input=data if from_stdin else None)
    assert result.exit_code == 1
    assert (f"{name}:1:46: the line ends are CR alone (\\r, an old Mac text format): a log holds one action a line, "
            "each ending in a newline (\\n or \\r\\n); convert it (`tr '\\r' '\\n' < LOG > LOG.jsonl`) and score "
            "that") in result.output
    assert "Extra data" not in result.output


def test_score_reads_crlf_line_ends_as_lines(tmp_path: Path):
    """CRLF line ends are lines, as LF ones: no CR-alone refusal."""
    from click.testing import CliRunner

    from warroom.cli import main

    log = tmp_path / "crlf.jsonl"
    log.write_bytes(b'{"t": 1.0, "kind": "pause"}\r\n{"t": 2.0, "kind": "resume"}\r\n')
    result = CliRunner().invoke(main, ["score", str(SCORED), str(log)])
    assert result.exit_code == 0, result.output
    assert result.output == (f"{log}: 100/100; all clear held; response: correct rejection; 0 false escalations "
                             "(scoring rules version 6)\n")


def test_score_refuses_a_log_that_is_not_utf8_naming_the_byte_and_the_fix(tmp_path: Path):
    """A Latin-1 log gave Python's codec text ("'utf-8' codec can't decode byte 0xe9 in position 43")."""
    from click.testing import CliRunner

    from warroom.cli import main

    log = tmp_path / "latin.jsonl"
    log.write_bytes(b'{"t": 1.0, "kind": "pause"}\n{"t": 1.0, "kind": "inspect", "event": "caf\xe9"}\n')
    result = CliRunner().invoke(main, ["score", str(SCORED), str(log)])
    assert result.exit_code == 1
    assert (f"{log}:2:44: the log is not UTF-8 text (byte 0xe9 here); a log is UTF-8 JSON Lines: save it as UTF-8 "
            "(`iconv -f ENCODING -t UTF-8 LOG > LOG.jsonl`)") in result.output
    assert "codec" not in result.output


# 6. Two rescores at once: the second to write finds the session re-scored meanwhile and says so, never rewrites it


@pytest.mark.usefixtures("backend_url")  # on the SQLite file and on a PostgreSQL schema (tests/pg_support.py)
def test_a_rescore_that_finds_the_session_re_scored_meanwhile_skips_it_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Facilitator A runs ``warroom scores rescore --rules 4`` and is asked; meanwhile B runs it with ``--yes``. A
    then agrees: A's writes replaced B's (the last writer won; a second history entry for nothing) and A said "1
    changed". Now each write checks, in its transaction, that the session was not re-scored since it was read: A
    skips it, says why and what to do, exits 1; B's scorecard and one history entry stay."""
    from scores_support import copy_drill_by_position, played_session, run_sub

    import warroom.cli.scores._delete as delete
    import warroom.cli.scores._rescore as rescore_module
    from warroom.store.results import ResultsStore

    data = tmp_path / "data"
    drill = copy_drill_by_position(tmp_path / "drills")  # rules 3 read authored ids, the recorder ids by position
    session = played_session(data, drill, cites=("e03", "e04", "e05", "e06"), rules="3")
    monkeypatch.setattr(delete, "_stdin_is_a_terminal", lambda: True)
    other: list[Any] = []

    def b_runs_while_a_is_asked(question: str) -> bool:
        other.append(run_sub(data, "rescore", "--rules", "4", "--yes"))
        return True

    monkeypatch.setattr(rescore_module.click, "confirm", b_runs_while_a_is_asked)
    a = run_sub(data, "rescore", "--rules", "4")
    (b,) = other
    assert b.exit_code == 0 and "re-scored 1 of 1 session: 1 changed, 0 unchanged, 0 skipped" in b.output
    assert a.exit_code == 1, a.output
    with ResultsStore(data) as store:
        row, history = store.get(session), store.scorecard_history(session)
    assert (row.scoring_version, row.outcome, row.total) == ("4", "right_step_unsupported", 10)
    assert [h.scorecard["scoring_version"] for h in history] == ["3"]  # B's replacement only: A wrote nothing
    assert (f"skipped: {session} (ann, duplicate-charge-refunds): re-scored by someone else (at {row.rescored_at}) "
            "since this re-score read it; not rewritten (run `warroom scores rescore` again to see what it holds "
            "now)") in a.output
    assert "re-scored 0 of 1 session: 0 changed, 0 unchanged, 1 skipped" in a.output


# 7. The summary's tables: cells measured as shown


_COLUMNS = [("trainee", "trainee", True), ("trials", "trials", False), ("hit rate", "hit rate [95%]", False),
            ("mean score", "mean score", False)]  # fmt: skip


def _rows(n: int) -> list[list[str]]:
    names = ["ana", "李小龙", "o'brien \x1b[2J", "zoë"]
    return [[f"{names[i % 4]}-{i}", str(i % 7), f"{i % 5}/4 {25 * (i % 5)}% [0–79]", str(i % 101)] for i in range(n)]


@pytest.mark.parametrize(("width", "rows"), [(200, _rows(300)), (52, _rows(30)), (200, _rows(1))])
def test_a_summary_table_never_cuts_a_name_holding_control_or_wide_characters(width: int, rows: list[list[str]]):
    """A name holding a control character (``\\x1b``, four characters shown) or wide characters is never cut: its
    fixed column was measured before escaping, and in characters rather than terminal cells, and
    ``o'brien \\x1b[2J-2`` lost its last character. (Rows of one line, a table narrow enough that cells wrap, one
    row.)"""
    from rich.console import Console

    from warroom.cli.common import table_lines
    from warroom.cli.scores._tables import fitted_table
    from warroom.core.text import clean

    table = fitted_table(_COLUMNS, rows, width)
    assert table is not None
    written = table_lines(table, console=Console(highlight=False, markup=False, emoji=False, width=width))
    shown = "\n".join(written)
    assert len(written) >= len(rows) + 4 and all(clean(row[0]) in shown for row in rows)  # a name never cut
