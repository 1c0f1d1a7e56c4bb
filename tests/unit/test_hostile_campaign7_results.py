"""A seventh fresh hostile campaign on results and scores (issue 30; docs/cohorts.md, "What a trainee can and cannot
do to their results"; docs/scoring.md, "What trainees that do not read get"): scripted trainees that use timing, the
plan's shape, output lengths, the cost meter and probes rather than content; the statistics at their edge counts; as
a hostile trainee or a faulty world would attack them. Each case it found, with the right behaviour."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from stats_support import blind_trainees_below_chance

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.stats import rate_cell
from warroom.core.stats._measures import wilson_interval
from warroom.core.text import percent

#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="a guess: s2 looked wrong in the trace, escalating",
              cites=("e02",))


@pytest.mark.parametrize(
    ("count", "n", "cell"),
    [(9999, 10000, "9999/10000 >99% [99–100]"), (1, 10000, "1/10000 <1% [0–1]"), (0, 10000, "0/10000 0% [0–1]"),
     (10000, 10000, "10000/10000 100% [99–100]"), (199, 200, "199/200 >99% [97–100]"), (1, 1, "1/1 100% [21–100]"),
     (0, 1, "0/1 0% [0–79]"), (7, 9, "7/9 78% [45–94]")],
)  # fmt: skip
def test_a_rate_near_none_or_all_is_not_shown_as_none_or_all_nor_its_interval_as_exact(count: int, n: int, cell: str):
    """A trainee with 10,000 trials (or 200) who missed one signal trial was shown ``9999/10000 100% [100–100]``: a
    hit rate of 100%, known exactly, beside counts that say otherwise (and one hit in 10,000 ``0% [0–0]``). The
    Wilson interval is never of width 0 (docs/sessions.md, "Cohort statistics"), and a share that is neither none nor
    all is never written as 0% or 100%."""
    assert rate_cell(count, n, *wilson_interval(count, n)) == cell
    shares = [percent(x) for x in (0.0, 1.0, 0.004, 0.996, 0.005)]
    assert shares == ["0%", "100%", "<1%", ">99%", "1%"]


def test_a_journal_under_a_stored_sessions_id_with_another_action_log_is_quarantined_not_dropped(tmp_path: Path):
    """Two machines sync into one store, each with a journal of the same session (the journal copied from one to the
    other, then played on, or edited: same id, trainee, drill and start, another action log). The second ``store
    sync`` took it for "the very same session stored twice", said nothing and moved it to ``journals/done/``: a
    session lost without a word (here the poor attempt, under the good one). It is another session: quarantined
    with the reason, the stored one left as it was (docs/sessions.md, "What is never lost")."""
    from store_support import bundled_drill_path

    from unit.test_forgeries import killed_journal

    a, b, url = tmp_path / "a", tmp_path / "b", f"sqlite:///{tmp_path / 'class.sqlite3'}"
    sid = killed_journal(a, bundled_drill_path(), {"mode": "assessment"}, [LATE])
    start, *_ = (a / "journals" / f"{sid}.jsonl").read_text().splitlines()
    at = json.loads(start)["started_at"]
    edited = [json.dumps({"type": "action", "seq": i, "at": at, "action": x.model_dump(mode="json", exclude_none=True)})
              for i, x in enumerate(GOOD, 1)]  # fmt: skip
    (b / "journals").mkdir(parents=True)
    (b / "journals" / f"{sid}.jsonl").write_text("\n".join([start, *edited]) + "\n")
    for data in (b, a):
        result = CliRunner().invoke(main, ["store", "sync", "--store", url, "--data-dir", str(data)])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "0 sessions delivered" in result.output
    assert not (a / "journals" / "done" / f"{sid}.jsonl").exists()
    why = (a / "journals" / "quarantine" / f"{sid}.jsonl.why.txt").read_text()
    assert "another session is stored under this id" in why and "with another action log" in why
    listed = CliRunner().invoke(main, ["--store", url, "scores", "--format", "json", "--data-dir", str(b)])
    rows = json.loads(listed.stdout)
    assert [(r["session_id"], r["outcome"], r["total"]) for r in rows] == [(sid, "contained", 100)]


# -- scripted trainees that do not read the trace (docs/scoring.md, "What trainees that do not read get") ------------


def _released_results(replay):
    return [e for e in replay.released if e.kind in ("tool_result", "command_result") and e.step]


def _pick(bot: str, drill, replay):
    """The event a scripted trainee escalates on, or None to wait: ``cost`` the newest result of the plan step that
    has cost most so far (the cost meter), at 30% of the trace; ``most-calls`` the newest result of the step with the
    most tool results so far, at 30%; ``slowest`` the tool result that took longest (its ``duration_ms``), at 20%."""
    if replay.now < (0.2 if bot == "slowest" else 0.3) * drill.duration:
        return None
    results = _released_results(replay)
    if bot == "slowest":
        timed = [e for e in results if getattr(e, "duration_ms", None)]
        return max(timed, key=lambda e: e.duration_ms) if timed else None
    if bot == "cost":
        costs = {step: usd for step, usd in replay.cost.usd_by_step.items() if step}
        step = max(costs, key=costs.__getitem__) if costs else None
    else:
        counts = {e.step: sum(x.step == e.step for x in results) for e in results}
        step = max(counts, key=counts.__getitem__) if counts else None
    return next((e for e in reversed(results) if e.step == step), None)


@pytest.mark.parametrize("bot", ["cost", "most-calls", "slowest"])
def test_trainees_that_read_the_cost_meter_the_plans_shape_or_timing_are_below_chance(bot: str, real_noise_draw):
    """Campaign 7 played 60 more scripted trainees that read no event's content over every bundled drill in
    assessment (20 trainees each): by timing alone (the gap before an event, a result's duration), the plan's shape
    (a step by its place, the step with most tool calls), output length against the same tool's other results, the
    cost meter, probes, executor reports ahead of their tool results, escalations re-sent or sprayed over every step,
    flags and notes naming every step. None is above chance (docs/scoring.md's table). Three of them here, over 5
    trainees: each wins some signal trials, and d′ as ``warroom scores summary`` computes it is below 0."""
    blind_trainees_below_chance(bot, lambda drill, replay: _pick(bot, drill, replay), seed=7)


def _after_the_deadline(drill, fault):
    """From the deadline of the library's file (``fault``) on, watches the count of events out at each moment: holds
    as soon as it differs from the file's (a twin's healthy run after the deadline), else escalates the second tool
    result's step 1 s before the file's last event."""
    from warroom.core.play import Replay, ReplayError, escalation_draft

    replay = Replay(drill)
    assert fault.answer_key is not None
    last = max(e.t for e in fault.trace) - 1.0
    for t in sorted({fault.answer_key.deadline, *(e.t for e in drill.trace if fault.answer_key.deadline < e.t < last)}):
        replay.advance_to(t)
        if replay.ended or len(replay.released) != sum(e.t <= t for e in fault.trace):
            return replay
    replay.advance_to(last)
    results = _released_results(replay)
    if len(results) >= 2 and not replay.ended:
        draft = escalation_draft(results[1], replay.released, drill.schema_version >= 2)
        with contextlib.suppress(ReplayError):
            replay.escalate(draft.target, "blind", draft.cites)
    return replay


def test_the_count_after_the_deadline_tells_nothing_a_response_can_use(real_noise_draw):
    """Issue 30: after the deadline a twin may release other events than its fault drill, so the count of events out
    can tell a noise trial then. It cannot make a response better: an escalation after the deadline is a miss on a
    signal trial and a false alarm on a noise trial. The trainee that escalates unless the count tells a noise trial
    (docs/scoring.md, "The last tells": 0 hits of 658, 168 false alarms of 222 over 20 trainees, d′ −3.86) hits
    nothing, and is below the trainee that never escalates, here over 5 trainees."""
    import random

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.scoring import score
    from warroom.core.stats._measures import d_prime_and_c
    from warroom.core.variants import draw_played_as, session_drill

    bank = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    rng = random.Random(6)
    hits = signal = alarms = noise = held_by_count = 0
    for _ in range(5):
        for d in bank:
            seed = rng.randrange(2**31)
            played = session_drill(d, seed, draw_played_as(d, seed))
            card = score(played, _after_the_deadline(played, d).actions)
            if played.is_all_clear:
                noise += 1
                alarms += card.response == "false_alarm"
                held_by_count += card.response == "correct_rejection"
            else:
                signal += 1
                hits += card.response == "hit"
    assert hits == 0 and held_by_count > 0 and noise > 20  # the count does tell some noise trials, too late
    told = d_prime_and_c(hits, signal, alarms, noise)
    never = d_prime_and_c(0, signal, 0, noise)
    assert told is not None and never is not None and told[0] < never[0] < 0, (told, never)


def test_a_copy_stays_a_copy_once_the_session_it_copies_is_deleted(tmp_path: Path):
    """A classmate's hit handed in under one's own name is found a copy by ``scores verify`` and left out. Then the
    classmate's session was deleted (``scores delete``: a duplicate cleaned up, a trainee's data removed): the next
    ``verify`` found nothing to copy, recorded the copy as verified, and the summary counted it as the copier's hit.
    A session found a copy stays one, saying so; verified again, its reason does not grow."""
    data = tmp_path / "class"
    bob = play(data, "bob", GOOD, mode="assessment").session_id
    (line,) = [
        json.loads(x)
        for x in CliRunner().invoke(main, ["store", "export", "--data-dir", str(data)]).stdout.split("\n")
        if x
    ]
    handed = tmp_path / "handed-in.jsonl"
    handed.write_text(json.dumps(line | {"trainee": "ann", "session_id": "20261206-100000-anne"}) + "\n")
    assert (
        CliRunner()
        .invoke(main, ["store", "import", "--trainee", "ann", str(handed), "--data-dir", str(data)])
        .exit_code
        == 0
    )
    assert CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)]).exit_code == 1
    assert CliRunner().invoke(main, ["scores", "delete", bob, "--yes", "--data-dir", str(data)]).exit_code == 0
    said = []
    for _ in range(2):
        result = CliRunner().invoke(main, ["scores", "verify", "--format", "json", "--data-dir", str(data)])
        assert result.exit_code == 1, result.output
        (verdict,) = json.loads(result.stdout)
        said.append(" ".join(verdict["problems"]))
    assert verdict["verdict"] == "disagrees" and said[0] == said[1]
    assert (
        said[0].startswith("it was found a copy when verified on ")
        and f"those of session {bob} of trainee 'bob'" in said[0]
    )
    assert said[0].endswith("and the session it copies is no longer stored: a copy stays one")
    summary = json.loads(
        CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(data)]).stdout
    )
    assert summary["trainees"] == [] and summary["unverified"]["ids"] == ["20261206-100000-anne"]


@pytest.mark.parametrize("edit", ["null-fields", "another-log"])
def test_a_line_handed_in_again_is_already_there_only_with_the_same_action_log(tmp_path: Path, edit: str):
    """The same exported line imported again is "already there" (a field written as null is the field left out);
    with another action log under the same id, trainee, drill and start it is another session, refused at its line,
    never counted as already stored."""
    data = tmp_path / "class"
    play(data, "ann", [LATE], mode="assessment")
    (line,) = [
        json.loads(x)
        for x in CliRunner().invoke(main, ["store", "export", "--data-dir", str(data)]).stdout.split("\n")
        if x
    ]
    actions = json.loads(line["actions"]) if isinstance(line["actions"], str) else line["actions"]
    if edit == "null-fields":
        actions = [a | {"event": a.get("event"), "probe": None} for a in actions]
    else:
        actions = [a | {"step": "s1", "cites": ["e04"], "t": 12.0} for a in actions]
    again = tmp_path / "again.jsonl"
    again.write_text(
        json.dumps(line | {"actions": actions if not isinstance(line["actions"], str) else json.dumps(actions)}) + "\n"
    )
    result = CliRunner().invoke(main, ["store", "import", "--trainee", "ann", str(again), "--data-dir", str(data)])
    if edit == "null-fields":
        assert result.exit_code == 0 and "0 sessions imported" in result.output and "1 already there" in result.output
    else:
        assert result.exit_code == 1 and "another session is stored under this id" in result.output, result.output
        assert "with another action log" in result.output and "1 refused" in result.output


def test_the_same_sessions_give_the_same_figures_to_the_last_digit_on_sqlite_and_postgresql(tmp_path: Path, store_url):
    """The cohort figures of one class's sessions, counted by SQLite's queries, by PostgreSQL's, and session by
    session in Python, are the same to the last digit: ``scores summary --format json`` of a SQLite store and of a
    PostgreSQL store that imported its export are equal (but for the store named in it and which sessions are not
    verified: the imported ones, counted here on request), in every mode."""
    from unit.test_cohort_counts import _random_store

    lite = tmp_path / "lite"
    _random_store(lite, None, n=160, seed=7)
    export = tmp_path / "all.jsonl"
    export.write_text(CliRunner().invoke(main, ["store", "export", "--data-dir", str(lite)]).stdout, encoding="utf-8")
    pg = tmp_path / "pg"
    result = CliRunner().invoke(
        main, ["store", "import", "--all-trainees", str(export), "--store", store_url, "--data-dir", str(pg)]
    )
    assert result.exit_code == 0 and "160 sessions imported" in result.output, result.output
    outputs = []
    for url, data in ((None, lite), (store_url, pg)):
        store = ["--store", url] if url else []
        for mode in ("auto", "practice", "all"):
            result = CliRunner().invoke(
                main,
                [
                    *store,
                    "scores",
                    "summary",
                    "--format",
                    "json",
                    "--mode",
                    mode,
                    "--include-unverified",
                    "--data-dir",
                    str(data),
                ],
            )
            assert result.exit_code == 1 and "16 stored sessions could not be counted" in result.output  # (as made)
            outputs.append(json.loads(result.stdout))
    for got in outputs:
        got.pop("store", None)
        assert got.pop("unverified")["counted"] is True  # (the imported ones are not verified: counted on request)
    import difflib

    for a, b in zip(outputs[:3], outputs[3:], strict=True):
        diff = list(
            difflib.unified_diff(
                json.dumps(a, indent=1).splitlines(), json.dumps(b, indent=1).splitlines(), lineterm="", n=2
            )
        )
        assert not diff, "\n".join(diff[:80])
    assert {t["trainee"] for t in outputs[2]["trainees"]} and any(
        t["hit_rate"] is not None for t in outputs[2]["trainees"]
    )


def _guess_then_quit(drill, all_clear: set[str]):
    """Escalates the step of the second tool result at once, citing it, and quits when that did not contain the
    incident (never escalates in the library's all-clear drills)."""
    from warroom.core.play import Replay, ReplayError, escalation_draft

    replay = Replay(drill)
    replay.advance_to(0.0)
    while not replay.ended:
        results = _released_results(replay)
        if len(results) >= 2 and drill.id not in all_clear:
            draft = escalation_draft(results[1], replay.released, drill.schema_version >= 2)
            with contextlib.suppress(ReplayError):  # refused: no escalation, as in the war room (above)
                if not replay.escalate(draft.target, "guess", draft.cites).contained and not replay.ended:
                    replay.quit()
            break
        replay.advance_to(replay.next_event_time or drill.duration)
    return replay


def test_a_guess_quit_when_it_did_not_contain_is_counted_in_practice_too(real_noise_draw):
    """In practice an abandoned session was kept apart (in no figure) even when it had escalated before the quit:
    a trainee who guesses and quits whenever the guess did not contain the incident (the war room shows a
    containment) kept only their hits, and a practice summary of the whole library showed 170 hits of 180 signal
    trials and no false alarm in 80 noise trials (d′ 4.07 pooled; each trainee's hit rate near 100%). A quit after an
    escalation has the escalation's response, and counts with it (a localisation error, a false alarm); only a quit
    before any escalation is kept apart in practice. Now the same trainee is below chance in practice as in
    assessment."""
    import random

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.scoring import score
    from warroom.core.stats import SessionFacts, summarize
    from warroom.core.stats._measures import d_prime_and_c
    from warroom.core.variants import draw_played_as, session_drill

    bank = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    all_clear = {d.id for d in bank if d.is_all_clear}
    rng = random.Random(7)
    facts = []
    for trainee in range(5):
        for d in bank:
            seed = rng.randrange(2**31)
            played = session_drill(d, seed, draw_played_as(d, seed))
            card = score(played, _guess_then_quit(played, all_clear).actions)
            facts.append(SessionFacts(
                trainee=f"quitter-{trainee}", drill_id=d.id, is_fault_drill=not played.is_all_clear,
                outcome=card.outcome, score=card.total, started_at="2026-12-06T10:00:00.000000+00:00",
                mode="practice", response=card.response, false_escalations=card.false_escalations,
            ))  # fmt: skip
    quits = [f for f in facts if f.outcome == "abandoned"]
    assert len(quits) > len(facts) // 2  # (most guesses do not contain)
    stats = summarize(facts)
    hits, signal = sum(t.hits for t in stats.trainees), sum(t.signal_trials for t in stats.trainees)
    against = sum(t.false_alarms + t.noise_abandoned for t in stats.trainees)
    noise = sum(t.noise_trials for t in stats.trainees)
    assert sum(t.abandoned_apart for t in stats.trainees) == 0 and signal + noise == len(facts)
    pooled = d_prime_and_c(hits, signal, against, noise)
    assert pooled is not None and pooled[0] < 0 and hits / signal < 0.5, (hits, signal, against, noise)


def test_a_practice_session_quit_before_any_escalation_is_still_kept_apart():
    """Quitting before escalating is what practice keeps apart (a trainee leaving a lesson): no response yet."""
    from warroom.core.stats import SessionFacts, summarize

    quit_early = SessionFacts(trainee="ann", drill_id="d1", is_fault_drill=True, outcome="abandoned", score=0,
                              started_at="2026-12-06T10:00:00.000000+00:00", mode="practice",
                              response="miss")  # fmt: skip
    guessed = SessionFacts(trainee="ann", drill_id="d2", is_fault_drill=True, outcome="abandoned", score=0,
                           started_at="2026-12-06T10:01:00.000000+00:00", mode="practice",
                           response="localisation_error", false_escalations=1)  # fmt: skip
    (ann,) = summarize([quit_early, guessed]).trainees
    assert (ann.abandoned, ann.abandoned_apart, ann.signal_trials, ann.localisation_errors) == (2, 1, 1, 1)
