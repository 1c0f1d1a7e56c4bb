"""Issue 30's leftovers on inputs, results and speed, each fixed where its concept lives and tested for the right
value: (1) a format-2 citation of a field the event does not have (``e03:nosuchfield``) is refused where it is typed
and in every replayed log, never judged as the whole event; (2) the output writers decide from the open and the
rename, not from a look at the path before; (3) a ``.tmp`` journal dated in the future is recovered once its writer
is gone, without waiting for the clock. The speed of ``scores verify`` and of the author mode on 20,000 events is
measured by benchmarks (benchmarks/bench_verify.py, benchmarks/bench_author.py), never by a timed test."""

from __future__ import annotations

import os
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.load import load_drill
from warroom.core.model import cited_field_miss
from warroom.core.play import Replay, ReplayError
from warroom.core.play._citations import judge_citations

SHAPES = Path(__file__).parent.parent / "fixtures" / "shapes"
FIELD_PATH = SHAPES / "shape-10-field-path.yaml"  # format 2; e03's output: {data: {...}, meta: {...}}, evidence
# at e03 data.next_cursor; e02 a tool call with arguments {status, older_than_days, limit}; e04 accepted, a report


# 1. a citation of a field the event does not have


def test_the_replay_refuses_a_field_the_event_does_not_have_naming_the_fields_it_has():
    drill = load_drill(FIELD_PATH)
    replay = Replay(drill)
    replay.advance_to(12)
    with pytest.raises(ReplayError) as refused:
        replay.escalate("s1", cites=["e03:nosuchfield"])
    assert str(refused.value) == ("'e03:nosuchfield' cites a field 'e03' does not have: `nosuchfield` is not one of "
                                  "its fields; its fields: data, meta; cite a field it has, or the whole event, 'e03'")
    deeper = r"`nxt_cursor` is not at `data` \(did you mean `next_cursor`\?\); the keys there: tickets, next_cursor"
    with pytest.raises(ReplayError, match=deeper):
        replay.escalate("s1", cites=["e03:data.nxt_cursor"])
    with pytest.raises(ReplayError, match="'e04:summary' cites a field 'e04' does not have: it has no fields"):
        replay.escalate("s1", cites=["e04:summary"])  # a report's text is no data
    assert not replay.actions  # nothing refused was recorded
    # the fields the inspector shows are there: the output, a tool call's arguments
    assert cited_field_miss(drill.trace[1], "older_than_days") is None
    assert cited_field_miss(drill.trace[2], "data.tickets[2].customer") is None
    result = replay.escalate("s1", cites=["e03:data.next_cursor"])
    assert result.contained


@pytest.mark.parametrize("rules", ["5", "6"])
def test_a_field_the_event_lacks_is_refused_from_rules_6_and_an_older_log_judged_as_it_was(rules: str):
    """From scoring rules version 6 a log citing a field its event lacks is refused at that action, never judged as
    the whole event. A stored log of an earlier edition (the war room let it hold one) is replayed and judged as it
    was released, so that a new edition changes no old score: e04 (a report, accepted evidence whole) has no fields,
    and ``e04:summary`` is judged "accepted", as e04 whole; ``e03:nosuchfield`` as e03's declared evidence field
    around it does not hold it: irrelevant."""
    from warroom.core.model import Action, ActionKind
    from warroom.core.scoring import ScoringError, replay_actions

    drill = load_drill(FIELD_PATH)
    log = [Action(t=12.0, kind=ActionKind.ESCALATE, step="s1", cites=("e04:summary", "e03:data.next_cursor"))]
    if rules == "6":
        with pytest.raises(ScoringError, match="'e04:summary' cites a field 'e04' does not have: it has no fields"):
            replay_actions(drill, log, rules=rules)
        return
    replay, _ = replay_actions(drill, log, rules=rules)
    assert replay.escalations[0].contained
    judged = dict(judge_citations(drill, ["e04", "e04:summary", "e03:data.next_cursor", "e03:nosuchfield"]))
    assert judged == {"e04": "accepted", "e04:summary": "accepted", "e03:data.next_cursor": "evidence",
                      "e03:nosuchfield": "irrelevant"}


def test_warroom_score_refuses_the_log_at_its_line(tmp_path: Path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"t": 7, "kind": "inspect", "event": "e03"}\n'
                   '{"t": 8, "kind": "escalate", "step": "s1", "cites": ["e03:nosuchfield"]}\n')  # fmt: skip
    refused = CliRunner().invoke(main, ["score", str(FIELD_PATH), str(log)])
    assert refused.exit_code == 1
    assert refused.output == (
        f"{log}:2:1: action 2 (escalate at 8 s): 'e03:nosuchfield' cites a field 'e03' does not have: `nosuchfield` "
        "is not one of its fields; its fields: data, meta; cite a field it has, or the whole event, 'e03'\n")
    fixed = log.with_name("fixed.jsonl")
    fixed.write_text(log.read_text().replace("e03:nosuchfield", "e03:data.next_cursor"))
    scored = CliRunner().invoke(main, ["score", str(FIELD_PATH), str(fixed)])
    assert scored.exit_code == 0 and scored.output.startswith(f"{fixed}: "), scored.output
    assert "; contained" in scored.output.splitlines()[0]


def test_a_journal_citing_it_is_quarantined_with_what_to_do(tmp_path: Path):
    """A journal left by a dead war room (its lock gone) whose escalation cites ``e03:nosuchfield`` is not
    stored as a hit: recovery quarantines it and says which action and what to do."""
    from warroom.core.model import Action, ActionKind
    from warroom.store.journal import SessionRecorder, recover_unfinished
    from warroom.store.results import ResultsStore

    rec = SessionRecorder.start(tmp_path, "annie", FIELD_PATH, load_drill(FIELD_PATH))
    rec.record(Action(t=7.0, kind=ActionKind.INSPECT, event="e03"))
    rec.record(Action(t=8.0, kind=ActionKind.ESCALATE, step="s1", cites=("e03:nosuchfield",)))
    rec.close()  # the war room killed: its lock is gone, the journal unfinished
    (r,) = recover_unfinished(tmp_path)
    assert not r.stored and r.quarantined
    assert ("action 2 (escalate at 8 s): 'e03:nosuchfield' cites a field 'e03' does not have: `nosuchfield` is not "
            "one of its fields; its fields: data, meta") in (r.error or "")
    assert "fix it and move it back" in (r.error or "")
    with ResultsStore(tmp_path) as store:
        assert store.count() == 0


async def test_the_war_rooms_field_input_refuses_it_with_the_fields_and_offers_no_citation(tmp_path: Path):
    """The war room's ``:`` (where a field is typed before it is cited): ``nosuchfield`` on e03 says which fields
    e03 has (and a typo deeper in, where it stops and the keys there); the escalation dialog then offers no field of
    e03 to cite (it offered the field gone to with ``:``, judged as e03 whole)."""
    from screen_support import record_notifications
    from textual.clock import MockClock

    from warroom.tui.app import WarroomApp
    from warroom.tui.logic import Services, load_entry
    from warroom.tui.room import EscalateScreen

    app = WarroomApp(Services(trainee="tester", data_dir=tmp_path / "data"), start=load_entry(FIELD_PATH),
                     clock=MockClock())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        told = record_notifications(app)
        await pilot.press("enter")
        live = app.live
        while app.clock.time < 7:
            app.clock.set_time(app.clock.time + 0.5)
            live.tick()
        await pilot.pause()
        await pilot.press("space")  # pause, on e03 (the newest event)
        assert live.selected_event().id == "e03"
        for path in ("nosuchfield", "data.nxt_cursor"):
            await pilot.press("colon")
            await pilot.press(*({".": "full_stop", "_": "underscore"}.get(c, c) for c in path))
            await pilot.press("enter")
            await pilot.pause()
        assert told == [
            "No field nosuchfield in e03: `nosuchfield` is not one of its fields; its fields: data, meta.",
            "No field data.nxt_cursor in e03: `nxt_cursor` is not at `data` (did you mean `next_cursor`?); the keys "
            "there: tickets, next_cursor, total.",
        ]
        await pilot.press("e")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen)
        assert dialog.fields == {}  # nothing refused is offered to be cited
        assert not any(":" in cite for cite in dialog.cites)


# 2. the output writers decide from the open and the rename, never from a look at the path before


def _swap_on(monkeypatch, target: Path, when: str, into: str, victim: Path) -> list[str]:
    """Swap ``target`` (a regular file) for ``into`` (``link``: a symbolic link to ``victim``; ``folder``) once,
    right after the writer's first look at it (``when`` ``look``: its first ``os.stat``/``os.lstat``) or right after
    it opened it and read what it is (``open``: its ``os.fstat``), as another process could. Returns the functions
    that saw the target, in order."""
    seen: list[str] = []
    real = {name: getattr(os, name) for name in ("stat", "lstat", "fstat")}
    inode = os.stat(target).st_ino

    def swap() -> None:
        if "swapped" in seen:
            return
        seen.append("swapped")
        target.unlink()
        if into == "link":
            target.symlink_to(victim)
        else:
            target.mkdir()

    def spy(name: str):
        def call(arg, *args, **kwargs):
            result = real[name](arg, *args, **kwargs)
            mine = (result.st_ino == inode) if name == "fstat" else (
                not isinstance(arg, int) and os.fspath(arg) == str(target))
            if mine:
                seen.append(name)
                if (when == "open") == (name == "fstat"):
                    swap()
            return result
        return call

    for name in real:
        monkeypatch.setattr(os, name, spy(name))
    return seen


def _emit(target: Path, tmp_path: Path) -> str | None:
    from warroom.cli.common._output import emit

    try:
        emit("new\n", target, what="JSON")
    except click.ClickException as exc:
        return exc.message
    return None


def _export(target: Path, tmp_path: Path) -> str | None:
    """``warroom store export --output TARGET``'s writer on an empty store (called as the command calls it, so that
    only the writer looks at the path): None when written, else the error's words."""
    from warroom.cli.store_cmd import _export_to
    from warroom.store.results import ResultsStore

    with ResultsStore(tmp_path / "data") as store:
        try:
            _export_to(store, target, [])
        except OSError as exc:
            return f"{target}: {str(exc.strerror).removeprefix('it ')}"
    return None


@pytest.mark.parametrize("writer", [_emit, _export], ids=["scores --output", "store export"])
@pytest.mark.parametrize("into", ["link", "folder"])
@pytest.mark.parametrize("when", ["look", "open"])
def test_a_path_swapped_while_an_export_is_written_is_never_written_through(
    tmp_path: Path, monkeypatch, when, into, writer
):
    """``--output out.json`` (``emit``, which scores, report and schema write with, and ``store export``) where
    another process swaps out.json for a link to a file it should not reach (or for a
    folder) between the writer's steps. The writer looked at the path (``special_file_kind``, ``read_only_mode``)
    and then resolved and replaced what it pointed to: swapped after the look, a link was written through (the
    victim got the export). Now the open decides (``O_NOFOLLOW``, ``fstat``) and the rename writes: the victim is
    never written, a folder never touched, and a swap after the open is replaced by the export (the rename replaces
    a link, never follows it) or refused."""
    if writer is _export:
        from warroom.store.results import ResultsStore

        ResultsStore(tmp_path / "data").close()  # the store made before the writer's steps are watched
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own text\n")
    target = tmp_path / "out.json"
    target.write_text("old\n")
    seen = _swap_on(monkeypatch, target, when, into, victim)
    refused = writer(target, tmp_path)
    monkeypatch.undo()
    what = "JSON" if writer is _emit else "export"
    assert "swapped" in seen, seen  # the swap happened between the writer's steps
    assert victim.read_text() == "the victim's own text\n"
    if into == "folder":
        assert refused in (f"{target}: is a folder; nothing was written: name a file", f"{target}: Is a directory")
        assert target.is_dir() and not any(target.iterdir())
    elif when == "look":
        assert refused == (f"{target}: is a symbolic link that leads nowhere (a loop, or one made while the {what} "
                           f"was being written); nothing was written: {'write it' if writer is _emit else 'export'} "
                           "again, or name another file")
        assert target.is_symlink()
    else:
        assert refused is None
        assert not target.is_symlink() and target.read_text() in ("new\n", "")  # (an empty store exports nothing)
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "data")
    assert left == ["out.json", "victim.txt"]  # no temporary file left


def test_the_writer_still_writes_through_a_link_and_refuses_a_read_only_file(tmp_path: Path):
    """What the writers promise without a race holds as before: a link is written through and stays a link; a file
    with no write bit is refused, even for root, whom the open allows."""
    from warroom.cli.common._output import emit

    shared = tmp_path / "shared.csv"
    shared.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(shared)
    emit("a,b\n", link, what="CSV")
    assert link.is_symlink() and shared.read_text() == "a,b\n"
    shared.chmod(0o444)
    with pytest.raises(click.ClickException) as refused:
        emit("c,d\n", link, what="CSV")
    assert refused.value.message == (f"{link}: the file is read-only (mode -r--r--r--): make it writable (chmod u+w) "
                                     "or write the CSV to another file; nothing was written")
    assert shared.read_text() == "a,b\n"
    loop_a, loop_b = tmp_path / "a.json", tmp_path / "b.json"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    with pytest.raises(click.ClickException) as refused:
        emit("{}\n", loop_a)
    assert refused.value.message == (f"{loop_a}: is a symbolic link that leads nowhere (a loop, or one made while the "
                                     "output was being written); nothing was written: write it again, or name another "
                                     "file")
    assert loop_a.is_symlink() and loop_b.is_symlink()
    fresh = tmp_path / "new" / "fresh.json"
    fresh.parent.mkdir()
    emit("{}\n", fresh)
    assert fresh.read_text() == "{}\n"


# 3. a .tmp journal dated in the future


def _tmp_journal(data_dir: Path, ahead_s: float, name: str = ".20261206-100000-abcd.jsonl.tmp") -> Path:
    jdir = data_dir / "journals"
    jdir.mkdir(parents=True, exist_ok=True)
    tmp = jdir / name
    tmp.write_text('{"type": "start"}\n')
    at = __import__("time").time() + ahead_s
    os.utime(tmp, (at, at))
    return tmp


@pytest.mark.parametrize("ahead_s", [3600.0, 86400.0 * 365, -120.0])
def test_a_tmp_journal_no_process_holds_is_set_aside_whatever_its_date(tmp_path: Path, ahead_s: float):
    """A half-created journal dated an hour or a year ahead of the clock waited for the clock (``now - mtime`` was
    never a minute) and stayed in journals/ at every start; two minutes old it was set aside, and still is."""
    from warroom.store.journal import recover_unfinished

    tmp = _tmp_journal(tmp_path, ahead_s)
    assert recover_unfinished(tmp_path) == []
    assert not tmp.exists()
    assert (tmp_path / "journals" / "unreadable" / tmp.name).read_text() == '{"type": "start"}\n'


def test_a_tmp_journal_held_by_its_creator_or_just_created_is_left(tmp_path: Path):
    """The lock decides: a ``.tmp`` journal its creator holds stays, dated a day ahead or not; one not held yet but
    within a minute of the clock (either way) may be in the instant between its creation and its lock: it stays."""
    from warroom.store.journal import recover_unfinished
    from warroom.store.journal._file import JournalWriter

    held = tmp_path / "journals" / ".20261206-100000-held.jsonl.tmp"
    held.parent.mkdir(parents=True)
    writer = JournalWriter.create(held)  # locked, as the war room's _open_journal holds it
    try:
        at = __import__("time").time() + 86400
        os.utime(held, (at, at))
        young = [_tmp_journal(tmp_path, s, f".20261206-10000{i}-yng{i}.jsonl.tmp") for i, s in enumerate((30, -30))]
        recover_unfinished(tmp_path)
        assert held.exists() and all(t.exists() for t in young)
        assert not (tmp_path / "journals" / "unreadable").exists()
    finally:
        writer.close()
    recover_unfinished(tmp_path)  # its creator gone, dated a day ahead: set aside now
    assert not held.exists() and (tmp_path / "journals" / "unreadable" / held.name).exists()


# 4. scores verify: each drill file found, hashed, loaded and made into each variant once per pass


def test_the_drill_cache_makes_each_variant_once_and_notices_a_file_changed_meanwhile(tmp_path: Path):
    """``scores verify`` keeps, for one pass, each drill file's path, SHA-256 and drill, and each (file, seed,
    trial) made into the drill played: two sessions of one seed get the very same variant (built once), another seed
    its own; a file rewritten between two sessions is hashed and loaded again, and the session played on the old
    bytes is said to be on a changed file."""
    from warroom.core.library import bundled_drills_dir
    from warroom.store.results import SessionInfo
    from warroom.store.review import DrillCache, file_sha256, resolve_session_drill

    path = tmp_path / "d.yaml"
    path.write_bytes((bundled_drills_dir() / "late-delivery-replies.yaml").read_bytes())  # it has variants
    sha = file_sha256(path)
    drill_id = load_drill(path).id

    def info(seed: int | None) -> SessionInfo:
        return SessionInfo(session_id=f"s{seed}", trainee="t", drill_id=drill_id, drill_version=1, drill_sha256=sha,
                           drill_path=str(path), started_at="2026-12-06T10:00:00+00:00", seed=seed)

    cache = DrillCache()
    first, again, other = (resolve_session_drill(info(s), lambda _i, p: Path(p), cache) for s in (7, 7, 8))
    assert again.drill is first.drill and other.drill is not first.drill
    assert not first.changed and first.sha256 == sha
    assert len(cache) == 1 and len(cache.played) == 2
    path.write_text(path.read_text().replace("title:", "title: Changed", 1))
    changed = resolve_session_drill(info(7), lambda _i, p: Path(p), cache)
    assert changed.changed and changed.sha256 == file_sha256(path) != sha
    assert changed.drill is not first.drill and changed.drill.title.startswith("Changed")


# 5. the author mode reads a drill on the fast path when it is sure of the same data


def test_the_author_modes_read_builds_the_same_data_on_either_path(tmp_path: Path):
    """``load_yaml_text`` (what ``warroom annotate`` reads a drill with) takes the fast path whenever it is sure of
    the data the position-tracking path builds (a 20,000-event drill opened in 16.3 s, now 1.9 s: benchmarks/
    bench_author.py); the data is the same for every bundled drill, and a file the fast path declines (a key given
    twice) is still refused at its ``path:line:col``."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import DrillLoadError, load_yaml_text
    from warroom.core.load._fast.load import fast_data
    from warroom.core.load._loader import _parse

    paths = sorted(bundled_drills_dir().glob("*.yaml"))
    fast = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        fast += fast_data(text) is not None
        assert load_yaml_text(text, str(path)) == _parse(text, str(path))[1], path
    assert fast > 0  # the fast path is taken (for 14 of the 44 bundled drills today: comments decline the rest)
    twice = tmp_path / "twice.yaml"
    twice.write_text("schema_version: 2\nid: a\nid: b\n")
    with pytest.raises(DrillLoadError) as refused:
        load_yaml_text(twice.read_text(), str(twice))
    assert str(refused.value.problems[0]).startswith(f"{twice}:3:1: ")
