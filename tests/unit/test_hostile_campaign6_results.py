"""A sixth fresh hostile campaign on results and scores (issue 30; docs/cohorts.md, "What a trainee can and cannot do
to their results"; docs/scoring.md, "What trainees that do not read get"): scripted trainees that try to win
without reading the trace, clocks and time zones, export and import round trips with edited lines, as a hostile
trainee or a faulty world would attack them; each case it found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.core.model import Action, ActionKind

#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="a guess: s2 looked wrong in the trace, escalating",
              cites=("e02",))


def _export(data: Path) -> list[dict]:
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(data)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def _import(lines: list[dict], data: Path, tmp_path: Path):
    file = tmp_path / "handed-in.jsonl"
    file.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return CliRunner().invoke(main, ["store", "import", "--trainee", "ann", str(file), "--data-dir", str(data)])


def test_an_imported_start_with_an_offset_is_stored_as_utc_and_orders_the_attempts_by_time(tmp_path: Path):
    """An exported line whose ``started_at`` was rewritten in another offset (``2026-12-06T09:00:00-05:00``: 14:00
    UTC) was stored as written, and the store orders a trainee's attempts by that text: a good attempt played at
    14:00 UTC sorted before a poor one played at 10:00 UTC, became the first attempt and turned a hit rate of 0 into
    1. A stored time is the store's UTC text, whatever offset a line gives, so the first attempt is the first in
    time; the same line imported twice is still one session."""
    played = tmp_path / "played"
    poor = play(played, "ann", [LATE], mode="assessment").session_id
    good = play(played, "ann", GOOD, mode="assessment").session_id
    lines = {line["session_id"]: line for line in _export(played)}
    lines[poor] |= {"started_at": "2026-12-06T10:00:00+00:00", "ended_at": "2026-12-06T10:01:00+00:00"}
    lines[good] |= {"started_at": "2026-12-06T09:00:00-05:00", "ended_at": "2026-12-06T09:01:00-05:00"}
    data = tmp_path / "class"
    for _ in range(2):
        result = _import(list(lines.values()), data, tmp_path)
        assert result.exit_code == 0, result.output
    assert "0 sessions imported" in result.output and "2 already there" in result.output
    csv = CliRunner().invoke(main, ["scores", "--format", "csv", "--data-dir", str(data)]).stdout.splitlines()
    starts = {row.split(",")[0]: row.split(",")[4] for row in csv[1:]}
    assert starts == {poor: "2026-12-06T10:00:00.000000+00:00", good: "2026-12-06T14:00:00.000000+00:00"}
    assert CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)]).exit_code == 0
    result = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(data)])
    (ann,) = json.loads(result.stdout)["trainees"]
    assert (ann["signal_trials"], ann["hits"], ann["replays"]) == (1, 0, 1)


@pytest.mark.parametrize(
    ("start", "zone", "shown"),
    [("9999-12-31T23:59:59+00:00", "Etc/GMT-14", "9999-12-31T23:59:59.000000+00:00"),
     ("0001-01-01T00:00:00+00:00", "Etc/GMT+12", "0001-01-01T00:00:00.000000+00:00"),
     ("9999-12-31T23:59:59+00:00", "Etc/GMT+12", "9999-12-31 11:59"),
     ("0001-01-01T00:00:00+00:00", "Etc/GMT-14", "0001-01-01 14:00")],
)  # fmt: skip
def test_a_start_at_the_end_of_the_calendar_is_listed_in_any_time_zone(tmp_path: Path, monkeypatch, start, zone, shown):
    """A session from a machine whose clock was years off (or a line handed in) starting in year 9999 or year 1:
    ``warroom scores`` shows starts in local time, and in a zone where that time is past year 9999 or before year 1
    the table died with ``OverflowError: date value out of range`` (a traceback) for the whole store. Such a start
    is shown as stored (UTC), the others in local time."""
    import time

    played = tmp_path / "played"
    play(played, "ann", GOOD)
    (line,) = _export(played)
    data = tmp_path / "class"
    assert _import([line | {"started_at": start, "ended_at": start}], data, tmp_path).exit_code == 0
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        result = CliRunner().invoke(main, ["scores", "--data-dir", str(data)], env={"COLUMNS": "250"})
    finally:
        monkeypatch.undo()
        time.tzset()
    assert result.exit_code == 0 and result.exception is None, result.output
    assert f" {shown} " in result.output


@pytest.mark.parametrize("start", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_an_imported_start_outside_the_calendar_in_utc_is_refused_at_its_line(tmp_path: Path, start: str):
    """A start that is a valid ISO time in its own offset but before year 1 or after year 9999 in UTC cannot be
    stored as the store's UTC text: refused at its line, saying why, nothing stored."""
    played = tmp_path / "played"
    play(played, "ann", GOOD)
    (line,) = _export(played)
    data = tmp_path / "class"
    result = _import([line | {"started_at": start}], data, tmp_path)
    assert result.exit_code == 1, result.output
    assert "handed-in.jsonl:1: session " in result.output
    assert f"started_at: outside the years 1 to 9999 once read as UTC (got '{start}')" in result.output
    assert "0 sessions imported" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("started_at", "at"),
    [("1970-01-01T00:00:05.000000+00:00", "2026-12-06T15:49:10.000000+00:00"),  # no clock at boot, then NTP
     ("2026-12-06T15:49:10.000000+00:00", "2026-12-06T15:48:10.000000+00:00")],  # the clock set back a minute
)  # fmt: skip
def test_a_session_whose_wall_clock_jumped_is_stored_with_its_score_and_an_unknown_wall_time(
    tmp_path: Path, started_at: str, at: str
):
    """A machine without a clock at boot starts a session in 1970 and sets its clock mid-session: the journal's
    action times are 56 years after its start, the wall-clock time to detect (1.8 billion s) was over what the store
    takes, and the whole session (a hit, 100) was quarantined, never stored: a real attempt lost over a figure that is
    for information only. A clock set back gave a time to detect of 0 s, as if the trainee saw it at once. A span the
    wall clock cannot give is unknown: the session is stored with its score, and its wall time to detect is empty."""
    from store_support import bundled_drill_path

    from unit.test_forgeries import killed_journal
    from warroom.store.journal import recover_unfinished

    data = tmp_path / "data"
    sid = killed_journal(data, bundled_drill_path(), {"started_at": started_at}, GOOD)
    journal = data / "journals" / f"{sid}.jsonl"
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    journal.write_text("".join(json.dumps(x | {"at": at} if x["type"] == "action" else x) + "\n" for x in lines))
    (recovered,) = recover_unfinished(data)
    assert recovered.stored, recovered
    result = CliRunner().invoke(main, ["scores", "--format", "json", "--data-dir", str(data)])
    (row,) = json.loads(result.stdout)
    assert (row["session_id"], row["outcome"], row["total"]) == (sid, "contained", 100)
    assert (row["wall_time_to_detect"], row["started_at"]) == (None, started_at)


@pytest.mark.parametrize("command", [["scores"], ["scores", "summary"], ["scores", "--format", "json"]])
def test_a_latin_1_terminal_shows_a_name_it_cannot_write_as_escapes_not_a_traceback(tmp_path: Path, command):
    """On a terminal set to Latin-1 (``LANG=de_DE.ISO-8859-1``, ``PYTHONIOENCODING=latin-1``) every command that
    printed a character outside Latin-1 (a trainee named in Japanese, the summary's ``d′``) ended in a
    ``UnicodeEncodeError`` traceback. What the terminal cannot write is written as an escape; JSON stays JSON (its
    escapes read back as the name)."""
    import os
    import subprocess
    import sys

    play(tmp_path, "日本語", GOOD)
    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "WARROOM_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "warroom", *command], env=env, capture_output=True, timeout=120)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode("latin-1")
    out = done.stdout.decode("latin-1")
    assert "\\u65e5\\u672c\\u8a9e" in out
    if "json" in command:
        assert [s["trainee"] for s in json.loads(out)] == ["日本語"]


# -- scripted trainees that do not read the trace (docs/scoring.md, "What trainees that do not read get") ------------


def _results(d):
    return [e for e in d.trace if e.kind in ("tool_result", "command_result")]


def _twin_told(released) -> bool:
    """Whether the ids released tell a twin to a trainee who reads no content (:func:`_blind_play`'s ``id-tell``)."""
    import re

    numbers = [int(m.group(1)) if (m := re.fullmatch(r"e(\d+)", e.id)) else None for e in released]
    return numbers != list(range(1, len(numbers) + 1))


def _count_told(released, now: float, fault) -> bool:
    """Whether the count of events out by ``now`` differs from the fault drill's file (``fault``: the library's
    drill as written) by then: what :func:`_blind_play`'s ``count-tell`` reads."""
    return len(released) != sum(e.t <= now for e in fault.trace)


def _blind_play(bot: str, drill, bank_all_clear: set[str], fault=None):
    """One session of a scripted trainee that reads no event's content: ``second-result`` escalates the step of the
    second tool result at once, citing it (the evidence's most common place in the bundled library);
    ``wait`` does the same after 10 s; ``id-tell`` is ``wait`` unless the drill is one of the library's all-clear
    drills or the ids shown by then tell a twin: an id that is not ``e<N>`` (a twin's added event, ``h1``), or ids
    that are not ``e1`` up to the count shown, in order (a gap or an event out of order); ``count-tell`` is
    ``id-tell`` unless the count of events out by then differs from the fault drill's file (``fault``)."""
    from warroom.core.play import Replay, escalation_draft

    replay = Replay(drill)
    replay.advance_to(0.0)
    if bot in ("id-tell", "count-tell") and drill.id in bank_all_clear:
        return replay
    while len(_results(drill)) >= 2 and not replay.ended:
        pick = [e for e in replay.released if e.kind in ("tool_result", "command_result")][1:2]
        if pick:
            if bot in ("id-tell", "count-tell", "wait"):
                replay.advance_to(replay.now + 10.0)
                if replay.ended or (bot != "wait" and _twin_told(replay.released)):
                    break
                if bot == "count-tell" and _count_told(replay.released, replay.now, fault):
                    break
            draft = escalation_draft(pick[0], replay.released, drill.schema_version >= 2)
            replay.escalate(draft.target, "blind", draft.cites)
            break
        replay.advance_to(replay.next_event_time or drill.duration)
    return replay


@pytest.mark.parametrize("bot", ["second-result", "id-tell"])
def test_trainees_that_read_no_content_are_below_chance_on_the_bundled_library(bot: str, real_noise_draw: float):
    """Campaign 6 played 38 scripted trainees that read no event's content over every bundled drill in assessment
    (20 trainees each, a seed drawn per session, signal or noise as the seed draws): escalating at fixed times, at
    every or the k-th tool result, at the first empty output or error word, the longest result, a random event, the
    evidence's most common place in the library, and with the twins' event-id tell. Some hit up to 30% of signal
    trials, but every one false-alarms as often or more, so d′ as ``warroom scores summary`` computes it is below 0
    for each. Two of them here, over 5 trainees: the hit rate is above 0 (the guess does win trials) and d′ is
    below 0 (the statistics do not take it for detection)."""
    import random

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.scoring import score
    from warroom.core.stats import SessionFacts, summarize
    from warroom.core.variants import draw_played_as, session_drill

    bank = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    all_clear = {d.id for d in bank if d.is_all_clear}
    rng = random.Random(6)
    facts = []
    for trainee in range(5):
        for d in bank:
            seed = rng.randrange(2**31)
            played = session_drill(d, seed, draw_played_as(d, seed))
            card = score(played, _blind_play(bot, played, all_clear).actions)
            facts.append(SessionFacts(
                trainee=f"{bot}-{trainee}", drill_id=d.id, is_fault_drill=not played.is_all_clear,
                outcome=card.outcome, score=card.total, started_at="2026-12-06T10:00:00.000000+00:00",
                mode="assessment", response=card.response, false_escalations=card.false_escalations,
            ))  # fmt: skip
    stats = summarize(facts)
    pooled_hits = sum(t.hits for t in stats.trainees)
    assert pooled_hits > 0
    assert all(t.enough_trials and t.d_prime is not None and t.d_prime < 0 for t in stats.trainees), [
        (t.trainee, t.hits, t.signal_trials, t.false_alarms, t.noise_trials, t.d_prime) for t in stats.trainees
    ]
    assert sum(t.noise_trials for t in stats.trainees) > 5 * len(all_clear)  # (twins played as noise too)


@pytest.mark.parametrize("other_seed", [False, True])
def test_a_hit_of_another_trainee_handed_in_under_ones_own_name_is_a_copy(tmp_path: Path, other_seed: bool):
    """A trainee who does not know the answer key takes a classmate's export, renames the trainee and the session id,
    and hands it in (``store import --trainee ann``): its drill, seed and action log were another trainee's, but
    ``verify`` looked for copies among the same trainee's sessions only, so it was verified and counted as ann's hit.
    Seeds are drawn at random and a log holds each action's drill time: two trainees never play the same one. It is a
    copy, named with whose; the classmate's own session stays verified and counted. So is a copy given another seed
    that draws the same trial (a seed changes nothing a log shows in a drill without timing variants)."""
    data = tmp_path / "class"
    bob = play(data, "bob", GOOD, mode="assessment").session_id
    (line,) = _export(data)
    copy = line | {"trainee": "ann", "session_id": "20261206-100000-anne", "seed": line["seed"] + other_seed}
    assert _import([copy], data, tmp_path).exit_code == 0
    result = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert result.exit_code == 1, result.output
    head = "disagrees: 20261206-100000-anne (ann, duplicate-charge-refunds)"
    if other_seed:
        said = (f"its drill and action log are those of session {bob} of trainee 'bob' (started {line['started_at']}, "
                f"seed {line['seed']}; this one claims seed {copy['seed']}): a copy, whatever its id, seed")
    else:
        said = (f"its drill, seed and action log are those of session {bob} of trainee 'bob' "
                f"(started {line['started_at']}): a copy")
    assert f"{head}: {said}" in " ".join(result.output.split())
    assert "verified 1 of 2 sessions: 1 disagree" in result.output
    result = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(data)])
    assert [(t["trainee"], t["hits"]) for t in json.loads(result.stdout)["trainees"]] == [("bob", 1)]


def test_a_line_stored_with_its_offset_before_is_already_there_when_imported_again(tmp_path: Path):
    """A store that holds a start as a line gave it (``-05:00``, as imports stored it before times were stored as
    UTC text): importing that line again is the session already stored, not "another session under its id"."""
    import sqlite3

    played = tmp_path / "played"
    play(played, "ann", GOOD)
    (line,) = _export(played)
    line |= {"started_at": "2026-12-06T09:00:00-05:00"}
    data = tmp_path / "class"
    assert _import([line], data, tmp_path).exit_code == 0
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET started_at = ?", (line["started_at"],))
    result = _import([line], data, tmp_path)
    assert result.exit_code == 0, result.output
    assert "0 sessions imported" in result.output and "1 already there, 0 refused" in result.output


def test_the_twin_id_tell_gives_a_trainee_who_reads_no_content_nothing(real_noise_draw: float):
    """Issue 30: the ids shown no longer tell a noise trial. Over the bundled library (5 trainees, a seed drawn per
    session), the ``id-tell`` trainee escalates exactly as the same trainee without the tell (``wait``) in every
    session of a drill with a twin, so its false-alarm rate on noise trials is the same; before, it fell from 100%
    to about 45% on the twins' ``h1`` and their gaps."""
    import random

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.scoring import score
    from warroom.core.variants import draw_played_as, session_drill

    bank = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    twinned = [d for d in bank if d.twin is not None]
    rng = random.Random(30)
    alarms = {"id-tell": 0, "wait": 0}
    noise = 0
    for _ in range(5):
        for d in twinned:
            seed = rng.randrange(2**31)
            played = session_drill(d, seed, draw_played_as(d, seed))
            logs = {bot: _blind_play(bot, played, set()).actions for bot in alarms}
            assert logs["id-tell"] == logs["wait"], (d.id, seed)
            if played.is_all_clear:
                noise += 1
                for bot, log in logs.items():
                    alarms[bot] += score(played, log).false_escalations > 0
    assert noise > 10 and alarms["id-tell"] == alarms["wait"] > noise // 2
    # the tell itself still reads the ids it was written for: the authored ids of a noise trial give it away
    held = next(d for d in twinned if d.id == "idle-volume-cleanup")
    from warroom.core.model import PlayedAs

    authored = session_drill(held, None, PlayedAs.NOISE, by_position=False)
    assert "h3" in [e.id for e in authored.trace if e.t <= 62] and _twin_told([e for e in authored.trace if e.t <= 62])
    shown = session_drill(held, None, PlayedAs.NOISE)
    assert not _twin_told([e for e in shown.trace if e.t <= 62])


def test_the_count_of_events_out_tells_a_trainee_who_reads_no_content_nothing(real_noise_draw: float):
    """Issue 30: with the ids by position, the count of rows out by a moment was what still told a noise trial (nine
    twins released more or fewer events than their fault drill by the deadline: the ``count-tell`` trainee, which
    holds when the count differs from the fault drill's file, false-alarmed on 60% to 64% of noise trials against
    72% without it). Every twin now releases as many events as its fault drill at every moment up to the deadline,
    so over the drills with a twin (5 trainees, a seed drawn per session) the count tells the same in both trials
    of each seed: whether it fires does not depend on the trial."""
    import random

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import PlayedAs
    from warroom.core.variants import session_drill

    twinned = [d for d in (load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))) if d.twin is not None]
    rng = random.Random(30)
    fired = 0
    for _ in range(5):
        for d in twinned:
            seed = rng.randrange(2**31)
            told = []
            for trial in (PlayedAs.SIGNAL, PlayedAs.NOISE):
                played = session_drill(d, seed, trial)
                logs = {bot: _blind_play(bot, played, set(), d).actions for bot in ("count-tell", "id-tell")}
                told.append(logs["count-tell"] != logs["id-tell"])
            assert told[0] == told[1], (d.id, seed, told)
            fired += told[0]
    assert fired > 0  # the tell does fire (timing variants shift both trials from the file alike)
