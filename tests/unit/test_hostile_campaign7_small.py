"""Campaign 7's small leftovers (issue 30, the brief of h33b): each fixed, each with the value it must have."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from scores_support import run_sub
from stats_support import add

from warroom.store.results import ResultsStore


def _balanced_trainee(data_dir: Path) -> Path:
    """ana: 5 hits of 10 signal trials and 3 false alarms of 6 noise trials, so that the corrected rates are
    H = 5.5/11 = 0.5 and F = 3.5/7 = 0.5: c = -(0 + 0)/2, a negative zero in floating point."""
    with ResultsStore(data_dir) as store:
        for i in range(10):
            add(store, f"s{i:02d}", "ana", f"fault-{i:02d}", "contained" if i < 5 else "missed", 50)
        for i in range(6):
            add(store, f"n{i:02d}", "ana", f"calm-{i:02d}", "false_alarm" if i < 3 else "all_clear_held", 50,
                all_clear=True)  # fmt: skip
    return data_dir


def test_no_negative_zero_in_the_summary_exports(tmp_path: Path) -> None:
    data = _balanced_trainee(tmp_path)
    r = run_sub(data, "summary", "--format", "json")
    assert r.exit_code == 0, r.output
    assert "-0.0" not in r.output
    ana = json.loads(r.output)["trainees"][0]
    assert ana["criterion_c"] == 0.0 and ana["d_prime"] == 0.0
    r = run_sub(data, "summary", "--format", "csv")
    row = next(row for row in csv.DictReader(io.StringIO(r.output)) if row["name"] == "ana")
    assert row["criterion_c"] == "0.0"
    table = run_sub(data, "summary", env={"COLUMNS": "200"}).output
    assert "-0.00" not in table


# --- 2. a note over its limit: where, the limit, and what to do ------------------------------------------------

_LONG_NOTE = {"t": 1.0, "kind": "flag", "event": "e01", "note": "x" * 2_500}
_NOTE_MESSAGE = (
    "note: the note is 2,500 characters long, over the limit of 2,000: shorten the note (a flag's note or an "
    "escalation's reason) to at most 2,000 characters"
)


def test_a_long_note_in_a_score_log_is_refused_at_its_column_with_the_limit(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from locations import REPO

    from warroom.cli import main

    log = tmp_path / "log.jsonl"
    text = json.dumps(_LONG_NOTE)
    log.write_text(text + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["score", str(REPO / "drills" / "api-dns-cutover.yaml"), str(log)])
    assert r.exit_code == 1
    column = text.index('"note"') + 1
    assert f"log.jsonl:1:{column}: not an action: {_NOTE_MESSAGE}" in r.output
    assert "String should have at most" not in r.output


def test_a_long_note_in_a_journal_is_a_corrupt_line_at_its_column(tmp_path: Path) -> None:
    from tests.unit.test_finite_values import journal
    from warroom.store.journal import read_journal

    line = json.dumps({"type": "action", "seq": 1, "at": "2026-01-01T00:00:01+00:00", "action": _LONG_NOTE})
    path = journal(tmp_path, line)
    (problem,) = read_journal(path).problems
    column = line.index('"note"') + 1
    assert str(problem) == f"{path}:2:{column}: corrupt action line (action.{_NOTE_MESSAGE}); skipped"


def test_a_long_note_in_an_imported_line_is_refused_at_its_column(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from store_support import add_session

    from warroom.cli import main

    with ResultsStore(tmp_path / "a") as store:
        add_session(store, "s1", trainee="ann")
    exported = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path / "a")]).stdout
    row = json.loads(exported.splitlines()[0])
    row["actions"] = json.dumps([_LONG_NOTE])
    text = json.dumps(row)
    (tmp_path / "in.jsonl").write_text(text + "\n", encoding="utf-8")
    argv = ["store", "import", "--data-dir", str(tmp_path / "b"), "--all-trainees", str(tmp_path / "in.jsonl")]
    r = CliRunner().invoke(main, argv)
    assert r.exit_code == 1
    column = text.index('\\"note\\"') + 1
    assert f"in.jsonl:1:{column}: actions: 0.{_NOTE_MESSAGE}" in r.output
    assert "0 sessions imported" in r.output


# --- 3. a session in progress is said, not silently missing ----------------------------------------------------


def _live_journal(data_dir: Path, sid: str, trainee: str = "ana", drill: str = "fault-00"):
    """A journal whose writer lives (this process holds its lock, as a war room playing it does)."""
    from warroom.store.journal import JournalWriter

    writer = JournalWriter.create(data_dir / "journals" / f"{sid}.jsonl")
    writer.append({"type": "start", "session_id": sid, "trainee": trainee, "drill_id": drill})
    return writer


def test_the_summary_says_how_many_sessions_are_in_progress(tmp_path: Path) -> None:
    data = _balanced_trainee(tmp_path)
    live = [_live_journal(data, "20261206-100000-aaaa"), _live_journal(data, "20261206-100000-bbbb", "ben")]
    try:
        r = run_sub(data, "summary", "--format", "json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["in_progress"] == 2
        r = run_sub(data, "summary", "--format", "json", "--trainee", "ben")
        assert json.loads(r.stdout)["in_progress"] == 1
        table = run_sub(data, "summary", env={"COLUMNS": "200"}).output
        assert "2 sessions in progress, not counted yet (counted once they end)." in table
        table = run_sub(data, "summary", "--trainee", "ben", env={"COLUMNS": "200"}).output
        assert "No sessions match --trainee ben: no session of trainee 'ben' is stored" in table
        assert "1 session in progress, not counted yet (counted once it ends)." in table
    finally:
        for writer in live:
            writer.close()
    r = run_sub(data, "summary", "--format", "json")
    assert json.loads(r.stdout)["in_progress"] == 0
    assert "in progress" not in run_sub(data, "summary", env={"COLUMNS": "200"}).output


def test_a_killed_sessions_journal_is_not_in_progress(tmp_path: Path) -> None:
    from warroom.store.journal import sessions_in_progress

    writer = _live_journal(tmp_path, "20261206-100000-aaaa")
    assert sessions_in_progress(tmp_path) == 1
    assert sessions_in_progress(tmp_path, trainee="ana", drill_id="fault-00") == 1
    assert sessions_in_progress(tmp_path, drill_id="fault-01") == 0
    writer.close()  # its process is gone: the lock with it
    assert (tmp_path / "journals" / "20261206-100000-aaaa.jsonl").exists()
    assert sessions_in_progress(tmp_path) == 0


# --- 4. a --drills folder too large to search: the refusal alone ------------------------------------------------


class _Listing:
    """What ``os.scandir`` returns, sorted by name (the walk's order fixed for the test)."""

    def __init__(self, entries: list) -> None:
        self.entries = iter(entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.entries)

    def close(self) -> None:
        return None


def _locked_folders(monkeypatch, listed: list[str]) -> None:
    """Folders named ``locked*`` cannot be listed (as /proc's are, even for root); every listing is sorted by name."""
    import os

    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)).startswith("locked"):
            listed.append(os.fspath(path))
            raise PermissionError(13, "Permission denied", os.fspath(path))
        with real(path) as it:
            return _Listing(sorted(it, key=lambda e: e.name))

    monkeypatch.setattr(os, "scandir", scandir)


def test_run_with_a_drills_folder_too_large_gives_the_refusal_alone(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.library import _library

    lib, elsewhere = tmp_path / "lib", tmp_path / "elsewhere"
    lib.mkdir()
    elsewhere.mkdir()
    for i in range(8):
        (lib / f"locked{i}").mkdir()
    for i in range(60):
        (elsewhere / f"f{i}.txt").write_text("")
    (lib / "shared").symlink_to(elsewhere)  # after the locked folders in the walk's (sorted) order
    listed: list[str] = []
    _locked_folders(monkeypatch, listed)
    monkeypatch.setattr(_library, "MAX_WALK_ENTRIES", 50)
    r = CliRunner().invoke(main, ["run", "--drills", str(lib), "--data-dir", str(tmp_path / "data"), "x"])
    assert r.exit_code == 2
    assert len(listed) == 8  # the walk met them before its bound
    assert "locked" not in r.output
    assert (f"; {lib} could not be read (more than 50 files and folders under it (the search for drill files stops "
            f"there): the symbolic link {lib / 'shared'} -> {elsewhere} in it leads out of it") in r.output
    assert len(r.output) < 800


def test_folders_that_could_not_be_read_are_named_three_then_counted(tmp_path: Path, monkeypatch) -> None:
    import pytest

    from warroom.core.library import DrillLibrary
    from warroom.core.library._library import UnknownDrill

    for i in range(5):
        (tmp_path / f"locked{i}").mkdir()
    _locked_folders(monkeypatch, [])
    with pytest.raises(UnknownDrill) as caught:
        DrillLibrary((tmp_path,)).resolve("nowhere")
    message = str(caught.value)
    named = [f"{tmp_path / f'locked{i}'} could not be read (Permission denied)" for i in range(3)]
    assert "; ".join(named) + "; and 2 more could not be read)" in message
    assert "locked3" not in message


# --- 5. two names of a variant that could read the same -------------------------------------------------------


def test_a_names_choice_that_is_another_names_text_is_refused_naming_both(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from locations import REPO

    from warroom.cli import main

    source = (REPO / "drills" / "clickstream-backfill.yaml").read_text(encoding="utf-8")
    written = "      choices: [exp_8a05, exp_91cb, exp_5be4]\n"
    assert written in source
    drill = tmp_path / "clickstream-backfill.yaml"
    drill.write_text(source.replace(written, "      choices: [exp_8a05, exp_7d31, exp_5be4]\n"), encoding="utf-8")
    line = source.splitlines().index(written.rstrip("\n")) + 1
    column = written.index("exp_91cb") + 1
    r = CliRunner().invoke(main, ["validate", str(drill)])
    assert r.exit_code == 1
    assert (f"{drill}:{line}:{column}: choice 'exp_7d31' of the name 'exp_7d34' is the name 'exp_7d31', so a variant "
            "could show both names as 'exp_7d31': give 'exp_7d34' a choice no other name reads as") in r.output
    drill.write_text(source.replace(written, "      choices: [exp_8a05, exp_91c7, exp_5be4]\n"), encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(drill)])
    assert r.exit_code == 1
    assert "choice 'exp_91c7' of the name 'exp_7d34' is a choice of the name 'exp_7d31' too, so" in r.output
    assert CliRunner().invoke(main, ["validate", str(REPO / "drills")]).exit_code == 0


# --- 6. the A′ interval of many trials: the same percentiles without sorting every pair -------------------------


def _both_ways(hits: int, signal: int, fas: int, noise: int) -> tuple[tuple[float, float], tuple[float, float]]:
    from warroom.core.stats import _measures as m

    s = m._binomial(signal, m.log_linear_rate(hits, signal))
    n = m._binomial(noise, m.log_linear_rate(fas, noise))
    grid = m._Grid(s, signal, n, noise)
    tail = (1 - m.CONFIDENCE) / 2 * grid.total
    return (grid.quantile(tail), grid.quantile(grid.total - tail)), m._sorted_percentiles(s, signal, n, noise)


def test_the_a_prime_percentiles_by_bisection_are_those_of_every_pair_sorted() -> None:
    cases = [(10, 10, 0, 5), (0, 10, 5, 5), (7, 10, 1, 5), (5, 10, 3, 6), (40, 40, 0, 20), (150, 300, 150, 300),
             (299, 300, 1, 250), (1, 200, 199, 200), (120, 240, 30, 60), (60, 80, 20, 400)]  # fmt: skip
    for case in cases:
        bisected, sorted_ = _both_ways(*case)
        assert bisected == sorted_, case


def test_a_large_a_prime_interval_takes_the_bisection_and_a_small_one_sorts(monkeypatch) -> None:
    from warroom.core.stats import _measures as m

    calls: list[str] = []
    real_sorted, real_quantile = m._sorted_percentiles, m._Grid.quantile
    monkeypatch.setattr(m, "_sorted_percentiles", lambda *a: calls.append("sorted") or real_sorted(*a))
    monkeypatch.setattr(m._Grid, "quantile", lambda self, t: calls.append("bisected") or real_quantile(self, t))
    m.a_prime_interval(7, 10, 1, 5)
    assert calls == ["sorted"]
    calls.clear()
    n = 10_000
    low, high = m.a_prime_interval(8_000, n, 2_000, n)
    assert calls == ["bisected", "bisected"]
    # at 10,000 trials each the bootstrap is near normal: the delta method's interval agrees to 1e-4
    h, f, e = m.log_linear_rate(8_000, n), m.log_linear_rate(2_000, n), 1e-6
    dh = (m.a_prime(h + e, f) - m.a_prime(h - e, f)) / (2 * e)
    df = (m.a_prime(h, f + e) - m.a_prime(h, f - e)) / (2 * e)
    sd = math.sqrt(dh * dh * h * (1 - h) / n + df * df * f * (1 - f) / n)
    assert abs(low - (m.a_prime(h, f) - 1.96 * sd)) < 1e-4 and abs(high - (m.a_prime(h, f) + 1.96 * sd)) < 1e-4


# --- 7. a summary table of thousands of drills: the first 100, then how many more ---------------------------------


def test_the_summary_table_shows_the_first_100_drills_and_counts_the_rest(tmp_path: Path) -> None:
    from warroom.cli.scores._statistics import SHOWN_DRILLS

    assert SHOWN_DRILLS == 100
    with ResultsStore(tmp_path) as store:
        for i in range(103):
            add(store, f"s{i:03d}", "ana", f"drill-{i:03d}", "contained" if i % 2 else "missed", 50)
    table = run_sub(tmp_path, "summary", env={"COLUMNS": "200"}).output
    shown = {f"drill-{i:03d}" for i in range(103) if f"drill-{i:03d}" in table}
    assert shown == {f"drill-{i:03d}" for i in range(100)}
    assert ("and 3 more drills (the first 100 by drill id are shown): --all shows every drill; --format json or csv "
            "gives every figure of every drill.") in " ".join(table.split())
    every = run_sub(tmp_path, "summary", "--all", env={"COLUMNS": "200"}).output
    assert all(f"drill-{i:03d}" in every for i in range(103)) and "more drill" not in every
    assert len(json.loads(run_sub(tmp_path, "summary", "--format", "json").stdout)["drills"]) == 103


def test_the_summary_table_shows_the_first_trainees_and_counts_the_rest(tmp_path: Path, monkeypatch) -> None:
    """Issue 30: the per-trainee table laid out every trainee (3,000 trainees: 4.6 s of CPU, Rich's layout, against
    0.6 s for JSON). It shows the first SHOWN_TRAINEES (500) by name, rows and bars, then how many more; --all
    and the exports show them all."""
    import warroom.cli.scores._statistics as statistics

    assert statistics.SHOWN_TRAINEES == 500
    monkeypatch.setattr(statistics, "SHOWN_TRAINEES", 4)  # the same cut as at 500, on a small class
    with ResultsStore(tmp_path) as store:
        for i in range(6):
            add(store, f"s{i:03d}", f"trainee-{i}", "drill-a", "contained" if i % 2 else "missed", 50)
    table = run_sub(tmp_path, "summary", env={"COLUMNS": "200"}).output
    rows = "\n".join(line for line in table.splitlines() if "noise trials" not in line)  # not the warning's list
    assert {f"trainee-{i}" for i in range(6) if f"trainee-{i}" in rows} == {f"trainee-{i}" for i in range(4)}
    assert ("and 2 more trainees (the first 4 by name are shown): --all shows every trainee; --format json or csv "
            "gives every figure of every trainee.") in " ".join(table.split())
    every = run_sub(tmp_path, "summary", "--all", env={"COLUMNS": "200"}).output
    assert all(f"trainee-{i}" in every for i in range(6)) and "more trainee" not in every
    assert len(json.loads(run_sub(tmp_path, "summary", "--format", "json").stdout)["trainees"]) == 6


def test_the_report_says_how_many_sessions_are_in_progress(tmp_path: Path) -> None:
    """`warroom report` says the sessions being played now, as the summary does: on the page's first paragraph and
    on the terminal, of the trainees asked for (a trainee named twice counted once)."""
    from click.testing import CliRunner

    from warroom.cli import main

    data = _balanced_trainee(tmp_path / "data")

    def report(*args: str) -> tuple[str, str]:
        out = tmp_path / "report.html"
        r = CliRunner().invoke(main, ["report", "--data-dir", str(data), "-o", str(out), *args])
        assert r.exit_code == 0, r.output
        return r.stderr, out.read_text(encoding="utf-8")  # stdout is kept for the page (--output -)

    live = [_live_journal(data, "20261206-100000-aaaa"), _live_journal(data, "20261206-100000-bbbb", "ben")]
    try:
        said, page = report()
        assert "2 sessions in progress, not counted yet (counted once they end)." in said
        assert "2 sessions in progress, not counted yet (counted once they end)." in page
        said, page = report("--trainee", "ana", "--trainee", "ana")
        assert "1 session in progress, not counted yet (counted once it ends)." in said
        assert "1 session in progress, not counted yet (counted once it ends)." in page
    finally:
        for writer in live:
            writer.close()
    said, page = report()
    assert "in progress" not in said and "in progress" not in page
