"""Issue 30's leftovers on the results side (docs/cohorts.md, "What a trainee can and cannot do to their results";
docs/sessions.md, "Cohort statistics"): the order of a trainee's attempts, first attempts that cannot be counted,
copies of short logs, seedless sessions of a drill with a twin, an end before the start, and each with the right
behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.store.cohort import FactsQuery, cohort_stats
from warroom.store.cohort._count import facts_stats
from warroom.store.results import ResultsStore

#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="guess", cites=("e02",))


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout


def _ann(store: ResultsStore) -> list[tuple[int, int, int, int]]:
    """Ann's (trials, replays, hits, signal trials), counted in SQL (the summary) and session by session (the
    report and the console)."""
    out = []
    for result in (cohort_stats(store, mode="all"), facts_stats(store, FactsQuery(), "all")):
        (ann,) = result.stats.trainees
        out.append((ann.trials, ann.replays, ann.hits, ann.signal_trials))
    return out


def test_a_clock_set_back_does_not_make_a_replay_the_first_attempt(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """A trainee plays a drill poorly, reads its debrief, sets their clock back a year and plays it again, well.
    The first attempt was the session with the earliest ``started_at``, which the trainee's clock sets, so the
    informed replay counted as a hit. The store's own order (``stored_seq``, which no client sets) decides: the
    poor session stays the trial, the good one a replay; on both back ends, in SQL and in process."""
    from warroom.store.journal import _recorder

    poor = play(tmp_path, "ann", [LATE], mode="assessment").session_id
    monkeypatch.setattr(_recorder, "utc_now", lambda: "2025-01-01T00:00:00.000000+00:00")
    monkeypatch.setattr(_recorder, "new_session_id", lambda now=None: "20250101-000000-aaaa")
    good = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.get(good).started_at < store.get(poor).started_at  # the clock set back
        assert _ann(store) == [(1, 1, 0, 1)] * 2
    summary = json.loads(_cli("scores", "summary", "--format", "json", "--data-dir", str(tmp_path))[1])
    (ann,) = summary["trainees"]
    assert (ann["trials"], ann["replays"], ann["hits"]) == (1, 1, 0), ann


def test_sessions_stored_before_the_store_numbered_them_come_first_in_start_order(tmp_path: Path):
    """A session without ``stored_seq`` (stored before schema version 20) was stored before every numbered one:
    it is the first attempt whatever start a numbered session claims, and two unnumbered ones are ordered by their
    starts."""
    old = play(tmp_path, "ann", [LATE], mode="assessment").session_id
    new = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    with ResultsStore(tmp_path) as store:
        store.db.conn.execute("UPDATE sessions SET stored_seq = NULL WHERE session_id = ?", (old,))
        store.db.conn.execute("UPDATE sessions SET started_at = '2030-01-01T00:00:00.000000+00:00' WHERE "
                              "session_id = ?", (old,))  # fmt: skip
        assert _ann(store) == [(1, 1, 0, 1)] * 2  # the unnumbered poor session, though it claims a later start
        store.db.conn.execute("UPDATE sessions SET stored_seq = NULL WHERE session_id = ?", (new,))
        assert _ann(store) == [(1, 1, 1, 1)] * 2  # both unnumbered: by start, the good one


def test_a_first_attempt_that_cannot_be_counted_leaves_its_drill_without_a_trial(
    tmp_path: Path, backend_url: str | None
):
    """A trainee's first attempt at a drill is stored with values that cannot be counted (here an outcome a drill
    with a fault cannot end with); they read its debrief and play it again, well. The rows that cannot be counted
    were dropped before the first-attempt search, so the informed replay became the trial: a hit. The first attempt
    is found among every stored session; one that cannot be counted is no trial, the later sessions stay replays,
    and the summary says so of that row; on both back ends, in SQL and in process."""
    poor = play(tmp_path, "ann", [LATE], mode="assessment").session_id
    play(tmp_path, "ann", GOOD, mode="assessment")
    with ResultsStore(tmp_path, url=backend_url) as store:
        store.db.conn.execute("UPDATE sessions SET outcome = 'all_clear_held' WHERE session_id = ?", (poor,))
        assert _ann(store) == [(0, 1, 0, 0)] * 2
        for result in (cohort_stats(store, mode="all"), facts_stats(store, FactsQuery(), "all")):
            (problem,) = result.problems
            assert problem.session_id == poor
            said = str(problem)
            assert "it is the first attempt of trainee 'ann' at drill" in said and "gives them no trial" in said
    code, out = _cli("scores", "summary", "--format", "json", "--data-dir", str(tmp_path))
    (ann,) = json.loads(out)["trainees"]
    assert code == 1 and (ann["trials"], ann["replays"], ann["hits"]) == (0, 1, 0), ann  # 1: a row left out


def test_a_later_session_that_cannot_be_counted_leaves_the_first_attempt_the_trial(tmp_path: Path):
    """The other side: a replay that cannot be counted changes nothing of the trial, and is no replay in the counts
    (it is in no figure) nor said to be a first attempt."""
    play(tmp_path, "ann", GOOD, mode="assessment")
    later = play(tmp_path, "ann", [LATE], mode="assessment").session_id
    with ResultsStore(tmp_path) as store:
        store.db.conn.execute("UPDATE sessions SET outcome = 'all_clear_held' WHERE session_id = ?", (later,))
        assert _ann(store) == [(1, 0, 1, 1)] * 2
        (problem,) = cohort_stats(store, mode="all").problems
        assert problem.session_id == later and "first attempt" not in str(problem)


def test_the_consoles_progress_page_orders_a_trainees_sessions_as_the_store_stored_them():
    """The console's progress page drew its points, and took each drill's first attempt, in start-time order: a
    replay whose start a clock set back put first counted as the trial there. It follows the store's order."""
    from warroom.console import progress
    from warroom.core.stats import SessionFacts

    poor = SessionFacts("ann", "d1", True, "missed", 0, "2026-12-01T10:00:00.000000+00:00", mode="assessment",
                        session_id="s-poor", stored_seq=1)  # fmt: skip
    good = SessionFacts("ann", "d1", True, "contained", 100, "2025-12-01T10:00:00.000000+00:00", mode="assessment",
                        session_id="s-good", stored_seq=2)  # fmt: skip
    made = progress("ann", [good, poor], lambda _: None)
    assert [p.session_id for p in made.points] == ["s-poor", "s-good"]
    assert (made.overall.trials, made.overall.hits, made.overall.replays) == (1, 0, 1)


def _handed_in(tmp_path: Path, actions: list[Action]) -> tuple[str, str, dict[str, str]]:
    """ann and bob each play ``actions`` on their own client; both exports are imported into the class's store
    (``--trainee``): their ids, and verify's verdict of each."""
    data = tmp_path / "class"
    ids = []
    for name in ("ann", "bob"):
        own = tmp_path / name
        ids.append(play(own, name, actions, mode="assessment").session_id)
        handed = tmp_path / f"{name}.jsonl"
        assert _cli("store", "export", "--data-dir", str(own), "-o", str(handed))[0] == 0
        assert _cli("store", "import", "--trainee", name, str(handed), "--data-dir", str(data))[0] == 0
    out = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))[1]
    return ids[0], ids[1], {v["session_id"]: v["verdict"] for v in json.loads(out)}


def test_two_trainees_with_the_same_short_honest_log_are_not_copies(tmp_path: Path):
    """ann and bob both escalate the right step citing e04 the moment it arrives, with the same two words: their
    logs are the same, honestly (one choice, a short note). verify named bob's a copy of ann's and left it out. A log
    is compared for copies only when it is telling (3 choices, or 40 characters of notes): both are verified."""
    from warroom.store.review._verify import telling

    short = [Action(t=12.0, kind=ActionKind.ESCALATE, step="s1", note="stale data", cites=("e04",))]
    assert not telling(short)
    ann, bob, verdicts = _handed_in(tmp_path, short)
    assert verdicts == {ann: "verified", bob: "verified"}


@pytest.mark.parametrize("telling_log", ["choices", "notes"])
def test_a_telling_log_handed_in_by_two_trainees_is_a_copy(tmp_path: Path, telling_log: str):
    """The other side: three choices (inspect, flag, escalate), or a note of 40 characters, the same in two
    trainees' sessions, are a copy: the one stored later disagrees."""
    from warroom.store.review._verify import MIN_TELLING_NOTES, telling

    if telling_log == "choices":
        log = [Action(t=12.0, kind=ActionKind.INSPECT, event="e04"),
               Action(t=12.0, kind=ActionKind.FLAG, event="e04", note="old"),
               Action(t=12.0, kind=ActionKind.ESCALATE, step="s1", note="stale", cites=("e04",))]  # fmt: skip
    else:
        note = "x" * MIN_TELLING_NOTES
        log = [Action(t=12.0, kind=ActionKind.ESCALATE, step="s1", note=note, cites=("e04",))]
        assert not telling([log[0].model_copy(update={"note": note[1:]})])
    assert telling(log)
    ann, bob, verdicts = _handed_in(tmp_path, log)
    assert verdicts == {ann: "verified", bob: "disagrees"}


@pytest.mark.parametrize("seed", [None, "own"])
def test_a_seedless_assessment_session_of_a_drill_with_a_twin_is_unverifiable(tmp_path: Path, seed):
    """An assessment session of a drill with a twin, outside a set, handed in without its seed: which trial it was
    (signal, or the twin's healthy run) is drawn from the seed, so its row cannot say. verify took the draw of no
    seed, a signal trial, and verified it. It is unverifiable, saying why; the same session with its seed is checked
    against its seed's draw and verified."""
    from unit.test_hostile_campaign6_fixes_results import _export, _import, _set_session, _verify

    src, dest = tmp_path / "ann", tmp_path / "fac"
    sid = _set_session(src, "ann", 0.0, set_id=None)  # outside a set: the trial its seed draws
    (line,) = _export(src, tmp_path / "x.jsonl")
    assert line["seed"] is not None
    if seed is None:
        line["seed"] = None
    _import([line], tmp_path / "in.jsonl", dest, "--trainee", "ann")
    got = _verify(dest)[sid]
    if seed is None:
        assert got["verdict"] == "unverifiable", got
        (said,) = got["problems"]
        assert said.startswith(f"unverifiable trial: it claims a {line['played_as']} trial of a drill with a twin but "
                               "holds no seed"), said  # fmt: skip
    else:
        assert got["verdict"] == "verified", got


def test_a_session_that_ends_before_it_starts_is_refused_on_import_and_named_by_verify(tmp_path: Path):
    """An import line whose ``ended_at`` is before its ``started_at`` was stored as it was. The store refuses it,
    naming the line; a row stored so before (by SQL) disagrees in ``scores verify``."""
    src, dest = tmp_path / "ann", tmp_path / "fac"
    sid = play(src, "ann", GOOD, mode="assessment").session_id
    out = tmp_path / "x.jsonl"
    assert _cli("store", "export", "--data-dir", str(src), "-o", str(out))[0] == 0
    line = json.loads(out.read_text())
    start = line["started_at"]
    line["ended_at"] = "2020-01-01T00:00:00.000000+00:00"
    out.write_text(json.dumps(line) + "\n")
    result = CliRunner().invoke(main, ["store", "import", "--trainee", "ann", str(out), "--data-dir", str(dest)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"x.jsonl:1: session {sid} was not stored: ended_at 2020-01-01T00:00:00.000000+00:00 is before "
            f"started_at {start}: a session ends after it starts") in result.output, result.output  # fmt: skip
    with ResultsStore(src) as store:  # a row stored before the check
        store.db.conn.execute("UPDATE sessions SET ended_at = '2020-01-01T00:00:00.000000+00:00'")
    code, text = _cli("scores", "verify", "--format", "json", "--data-dir", str(src))
    (got,) = json.loads(text)
    assert code == 1 and got["verdict"] == "disagrees", got
    assert got["problems"] == [f"ended_at 2020-01-01T00:00:00.000000+00:00 is before started_at {start}: a session "
                               "ends after it starts (the clock that wrote it was wrong, or the row was changed)"]


def test_a_clock_stepped_back_during_a_session_ends_it_at_its_start_and_stores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The other side: warroom's recorder, whose clock steps back during a session (a time synchronisation), stores
    the session ended at its start instead of losing it to the store's refusal."""
    from store_support import bundled_drill_path, load

    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder, _recorder

    drill = load(bundled_drill_path())
    rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), drill, mode="practice")
    monkeypatch.setattr(_recorder, "utc_now", lambda: "2020-01-01T00:00:00.000000+00:00")
    assert rec.finish(score(drill, rec.actions))
    with ResultsStore(tmp_path) as store:
        row = store.get(rec.session_id)
    assert row.ended_at == row.started_at > "2020"


def test_a_journal_whose_end_line_ends_before_its_start_is_recovered_ended_at_its_start(tmp_path: Path):
    """A finished journal (queued, or killed while storing) whose end line says it ended before it started: the
    store refuses such a row, so recovery quarantined the whole session. An end line is never trusted: the session
    is stored ended at its start, and its notes say why."""
    from unit.test_forgeries import killed_with_end_line, played_drill
    from warroom.core.scoring import score
    from warroom.store.journal import recover_unfinished

    made = score(played_drill(), GOOD).to_dict()
    sid = killed_with_end_line(tmp_path, GOOD, {"outcome": made["outcome"], "total": made["total"], "scorecard": made,
                                                "ended_at": "2000-01-01T00:00:00+00:00"})  # fmt: skip
    (rec,) = recover_unfinished(tmp_path)
    assert rec.stored and any("ended_at 2000-01-01T00:00:00+00:00 is before started_at" in p for p in rec.problems)
    with ResultsStore(tmp_path) as store:
        row = store.get(sid)
    assert row.ended_at == row.started_at


def test_a_variant_renamed_before_it_is_validated_is_the_variant_renamed_after():
    """``session_drill`` renames a seeded variant of a drill with a twin by position before validating it (one round
    trip through the model instead of two: ``scores verify`` makes one per session); the drill played is the very
    one the two steps made, for every bundled drill, both trials and several seeds."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import PlayedAs, id_width, twin_of
    from warroom.core.variants import apply_variant, can_play_as, ids_by_position, session_drill

    checked = 0
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        drill = load_drill(path)
        if drill.twin is None or drill.variants is None:
            continue
        for played_as in can_play_as(drill):
            base = twin_of(drill) if played_as is PlayedAs.NOISE else drill
            for seed in (0, 1, 7, 123_456):
                two_steps = ids_by_position(apply_variant(base, seed), id_width(drill))[0]
                assert session_drill(drill, seed, played_as) == two_steps, (path.name, played_as, seed)
                checked += 1
    assert checked >= 20  # (the bundled drills with a twin and variants, each trial, each seed)


def test_sessions_recovered_together_are_numbered_in_the_order_they_were_started(tmp_path: Path):
    """docs/cohorts.md, "Claim a start time": sessions left as journals (killed, or queued while a shared store was
    down) are stored in the order they were started in the data directory (their start lines' ``order``; not their
    names, which the clock sets: tests/unit/test_queue_order.py), after every session the store holds: a later
    session already stored stays the first attempt."""
    from store_support import bundled_drill_path

    from unit.test_forgeries import killed_journal
    from warroom.store.journal import recover_unfinished

    stored = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    left = [killed_journal(tmp_path, bundled_drill_path(), {"mode": "assessment"}, []) for _ in range(3)]
    assert all(r.stored for r in recover_unfinished(tmp_path))
    with ResultsStore(tmp_path) as store:
        seq = dict(store.db.conn.execute("SELECT session_id, stored_seq FROM sessions").fetchall())
        assert sorted(seq, key=seq.__getitem__) == [stored, *left]  # left: in the order they were started
        assert _ann(store) == [(1, 3, 1, 1)] * 2  # the session stored first is the trial, a hit
