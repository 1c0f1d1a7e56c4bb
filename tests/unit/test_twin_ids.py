"""The twin-id tell (issue 30): the ids a trainee sees do not depend on the trial (warroom/core/variants/_ids.py;
docs/authoring.md "The ids trainees see"; docs/scoring.md "What trainees that do not read get").

A drill with a twin is played, from scoring rules version 6, with its trace events renamed by position in release
order (``e01``, ``e02``, ...), every reference renamed alike; a session recorded by an earlier edition is rebuilt
with the authored ids it was played with."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from library_support import load_bundled

from warroom.core.author._examples import example_path
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, Drill, PlayedAs, id_width
from warroom.core.play import Replay
from warroom.core.rules import validate_drill
from warroom.core.scoring import ids_by_position, score
from warroom.core.variants import session_drill

#: The ids ids_by_position gives: ``e`` and the event's position in the played trace, from 1.
PLAYED_ID = re.compile(r"e\d+")
EXAMPLES = example_path("full").parent
BANK = [load_bundled(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
TWINNED = [d for d in BANK if d.twin is not None]


def _released_by(drill: Drill) -> list[tuple[float, list[str]]]:
    """The ids shown by each moment of the drill (each event time, and the end): what a trainee who reads no content
    has seen by then, in release order."""
    replay = Replay(drill)
    out: list[tuple[float, list[str]]] = []
    for t in sorted({0.0, *(e.t for e in drill.trace), drill.duration}):
        replay.advance_to(t)
        out.append((t, [e.id for e in replay.released]))
    return out


@pytest.mark.parametrize("drill", TWINNED, ids=lambda d: d.id)
def test_the_ids_shown_by_any_moment_are_the_same_in_the_signal_and_the_noise_trial(drill: Drill):
    """The k-th event released shows the same id in both trials, for every seed: whatever a trainee has seen by a
    moment, its ids are ``e01`` up to the count shown, the same list in a signal and a noise trial of the same
    count (no ``h1``, no gap, no out-of-order id)."""
    width = id_width(drill)
    for seed in (None, 0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89):
        trials = [session_drill(drill, seed, trial) for trial in (PlayedAs.SIGNAL, PlayedAs.NOISE)]
        for played in trials:
            for _, shown in _released_by(played):
                assert shown == [f"e{k:0{width}d}" for k in range(1, len(shown) + 1)], (seed, shown)
        by_t = [dict(_released_by(played)) for played in trials]
        for t in sorted(set(by_t[0]) & set(by_t[1])):
            a, b = by_t[0][t], by_t[1][t]
            assert a[: len(b)] == b[: len(a)]  # one trial's ids are the other's first ones
            if len(a) == len(b):
                assert a == b


def _released_at(drill: Drill, until: float) -> dict[float, int]:
    """How many events the played ``drill`` releases at each moment up to ``until`` (what a trainee who reads no
    content sees change: the rows out and when they come), from its replay."""
    replay = Replay(drill)
    counts: dict[float, int] = {}
    for t in sorted({0.0, *(e.t for e in drill.trace if e.t <= until)}):
        before = len(replay.released)
        replay.advance_to(t)
        counts[t] = len(replay.released) - before
    return {t: n for t, n in counts.items() if n}


@pytest.mark.parametrize("drill", TWINNED, ids=lambda d: d.id)
def test_the_count_of_events_released_at_every_moment_up_to_the_deadline_is_the_same_in_both_trials(drill: Drill):
    """The count tell (issue 30; docs/scoring.md, "What trainees that do not read get"): with the ids by position,
    the rows out by a moment were what still told a noise trial (nine twins released more or fewer events than their
    fault drill by the deadline). Every bundled twin's healthy run now replaces the fault drill's events at their
    moments, so for every seed the events released at each moment up to the answer key's deadline are as many in
    the noise trial as in the signal trial, and come at the same moments."""
    for seed in (None, 0, 1, 2, 3, 5, 8, 13, 21, 34):
        signal = session_drill(drill, seed, PlayedAs.SIGNAL)
        noise = session_drill(drill, seed, PlayedAs.NOISE)
        assert signal.answer_key is not None and noise.is_all_clear
        deadline = signal.answer_key.deadline
        assert isinstance(deadline, int | float)
        by_signal, by_noise = _released_at(signal, deadline), _released_at(noise, deadline)
        assert sum(by_signal.values()) > 0
        assert by_noise == by_signal, (seed, sorted(set(by_noise.items()) ^ set(by_signal.items())))


def _states_by(drill: Drill, until: float) -> dict[float, dict[str, str]]:
    """The plan step states the plan panel shows at each moment up to ``until`` (pending, in progress, moved on
    without a report, or the status of the step's latest executor report), from the played ``drill``'s replay."""
    replay = Replay(drill)
    out: dict[float, dict[str, str]] = {}
    for t in sorted({0.0, *(e.t for e in drill.trace if e.t <= until)}):
        replay.advance_to(t)
        out[t] = {step: str(state) for step, state in replay.step_states.items()}
    return out


#: Drills whose step state is itself the fault: the executor's report, the evidence, claims a status the healthy
#: run does not (``dependabot-merge-train``: CI green at e12, where the healthy run reports the merge blocked), or
#: the executor loops on in its step (``idle-volume-cleanup``: s2 still in progress at 43 s, polling an empty
#: inventory, where the healthy run reports it done and moves on). Their states may differ from the earliest evidence.
STATE_IS_EVIDENCE = {"dependabot-merge-train", "idle-volume-cleanup"}


def _evidence_at(drill: Drill) -> float:
    """The time of the played ``drill``'s earliest evidence event."""
    assert drill.answer_key is not None
    ids = {e if isinstance(e, str) else getattr(e, "event", None) for e in drill.answer_key.evidence}
    return min(e.t for e in drill.trace if e.id in ids)


@pytest.mark.parametrize("drill", TWINNED, ids=lambda d: d.id)
def test_the_plan_step_states_shown_at_every_moment_up_to_the_deadline_are_the_same_in_both_trials(drill: Drill):
    """The step-state tell (issue 30; docs/scoring.md, "What trainees that do not read get"): three twins that kept
    the count of events still showed a plan step in progress in the noise trial where the signal trial had moved
    on (``held-orders-release``, ``leaver-access-revocation``, ``stripe-sdk-upgrade``: the healthy run's extra
    work came in the step the fault drill had reported done). For every seed, the plan panel's states are the same
    in both trials at every moment up to the answer key's deadline, but where the state is the fault's evidence."""
    for seed in (None, 0, 1, 2, 3, 5, 8, 13, 21, 34):
        signal = session_drill(drill, seed, PlayedAs.SIGNAL)
        noise = session_drill(drill, seed, PlayedAs.NOISE)
        assert signal.answer_key is not None
        deadline = signal.answer_key.deadline
        assert isinstance(deadline, int | float)
        by_signal, by_noise = _states_by(signal, deadline), _states_by(noise, deadline)
        assert by_signal.keys() == by_noise.keys()
        evidence_at = _evidence_at(signal) if drill.id in STATE_IS_EVIDENCE else None
        for t in by_signal:
            if evidence_at is None or t < evidence_at:
                assert by_noise[t] == by_signal[t], (seed, t, by_signal[t], by_noise[t])


@pytest.mark.parametrize("drill", TWINNED, ids=lambda d: d.id)
def test_each_played_drill_is_valid_with_every_reference_renamed(drill: Drill):
    """The played drill passes the semantic rules (which check every reference to an event), in both trials, with
    the twin and variants sections kept (no seed) and with a seed's variant."""
    for seed in (None, 7):
        for trial in (PlayedAs.SIGNAL, PlayedAs.NOISE):
            played = session_drill(drill, seed, trial)
            assert all(PLAYED_ID.fullmatch(e.id) for e in played.trace)
            assert validate_drill(played) == [], (seed, trial)


# -- every kind of reference ---------------------------------------------------------------------------------------


def _refs(drill: Drill) -> dict[str, list[Any]]:
    """Every reference to an event in ``drill``, by kind."""
    key = drill.answer_key
    refs: dict[str, list[Any]] = {
        "call": [getattr(e, "call", None) for e in drill.trace],
        "retry_of": [getattr(e, "retry_of", None) for e in drill.trace],
        "request": [getattr(e, "request", None) for e in drill.trace],
        "distractors": [d.event for d in drill.distractors],
        "until_event": [a.until_event for p in drill.probes for a in p.answers],
    }
    if key is not None:
        refs["origin_event"] = [key.fault.origin_event]
        refs["evidence"] = [i if isinstance(i, str) else (i.event, tuple(i.all_of or ())) for i in key.evidence]
        refs["accepted_evidence"] = [i if isinstance(i, str) else i.event for i in key.accepted_evidence]
        refs["damage"] = [e.event for e in key.damage.entries] + list(key.damage.spend)
        refs["replan"] = [e.id for e in key.replan] + [getattr(e, "call", None) for e in key.replan]
    return refs


def _mapped(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, tuple):
        return tuple(_mapped(v, names) for v in value)
    return value


@pytest.mark.parametrize("name", ["fanout-retries.yaml", "handoff-loop.yaml"])
@pytest.mark.parametrize("trial", [PlayedAs.SIGNAL, PlayedAs.NOISE])
def test_every_reference_to_an_event_is_renamed_with_it(name: str, trial: PlayedAs, tmp_path: Path):
    """Tool results' and retries' calls, approvals' requests, the fault's origin_event, evidence (an id, a field, a
    comparison, an absence), accepted evidence, damage entries and spend, re-plan events, distractors and probes'
    until_event: each names, after renaming, the event it named before."""
    (tmp_path / name).write_text(
        re.sub(r"\be0*(\d+)\b", lambda m: f"ev{m.group(1)}x", (EXAMPLES / name).read_text(encoding="utf-8")),
        encoding="utf-8",
    )
    drill = load_drill(tmp_path / name)
    if drill.twin is None and trial is PlayedAs.NOISE:
        pytest.skip("no twin")
    if drill.twin is None:  # renaming applies to drills with a twin: give this one a twin that changes nothing
        drill = drill.model_copy(update={"twin": _no_change_twin()})
    authored = session_drill(drill, None, trial, by_position=False)
    played = session_drill(drill, None, trial)
    assert [e.t for e in played.trace] == [e.t for e in authored.trace]
    names = {a.id: p.id for a, p in zip(authored.trace, played.trace, strict=True)}
    if authored.answer_key is not None:
        names |= {a.id: p.id for a, p in zip(authored.answer_key.replan, played.answer_key.replan, strict=True)}
    assert all(a != p for a, p in names.items() if a.startswith("ev"))  # every authored id renamed
    before, after = _refs(authored), _refs(played)
    assert {k: [_mapped(v, names) for v in vs] for k, vs in before.items()} == after
    assert sum(1 for vs in before.values() for v in vs if v) >= 8  # the example does use these references
    assert [i for i in validate_drill(played) if i.loc != ("twin",)] == []  # (the added twin changes nothing)


def _no_change_twin() -> Any:
    from warroom.core.model import Twin

    return Twin(debrief="Nothing was wrong in this run.")


# -- the same log scores the same on the ids shown ------------------------------------------------------------------


@pytest.mark.parametrize("drill", [d for d in TWINNED if d.id in ("harbor-outage-credit", "clinic-rebooking",
                                                                   "delay-refund-chats", "staging-volume-resize")],
                         ids=lambda d: d.id)
def test_an_escalation_citing_the_shown_ids_is_judged_as_citing_the_authored_ones(drill: Drill):
    """For each tool result, escalating its step citing it scores the same on the played drill (cited by its shown
    id) as on the drill with authored ids: the renaming changes names, never a verdict."""
    for trial in (PlayedAs.SIGNAL, PlayedAs.NOISE):
        authored = session_drill(drill, 3, trial, by_position=False)
        played = session_drill(drill, 3, trial)
        names = {a.id: p.id for a, p in zip(authored.trace, played.trace, strict=True)}
        for event in authored.trace:
            if event.kind not in ("tool_result", "command_result") or event.step is None:
                continue
            log = [Action(t=event.t, kind=ActionKind.ESCALATE, step=event.step, note="x", cites=(event.id,))]
            shown = [log[0].model_copy(update={"cites": (names[event.id],)})]
            a, p = score(authored, log), score(played, shown)
            assert (a.outcome, a.total, a.response) == (p.outcome, p.total, p.response), event.id


# -- old sessions ---------------------------------------------------------------------------------------------------


def test_the_edition_says_which_ids_a_session_played():
    assert [ids_by_position(v) for v in (None, "1", "4", "5", "6", "99")] == [False, False, False, False, True, True]


def _held(tmp_path: Path) -> Path:
    """idle-volume-cleanup, whose twin's healthy run has events of its own (``h3``, at 62 s, after the deadline: the
    snapshot-and-delete call once the notice passed)."""
    path = tmp_path / "drills" / "idle-volume-cleanup.yaml"
    path.parent.mkdir(parents=True)
    shutil.copyfile(bundled_drills_dir() / path.name, path)
    return path


def _record(tmp_path: Path, path: Path, cite: str, rules: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A noise session of idle-volume-cleanup recorded by a warroom of scoring rules ``rules`` (the recorder's
    code path, its edition set back for an old one), escalating s1 at 65 s citing ``cite``; its session id."""
    from warroom.store.journal import SessionRecorder, Trial, _recorder

    monkeypatch.setattr(_recorder, "scoring_version", lambda: rules)
    trial = Trial(PlayedAs.NOISE, chosen=True)  # (warroom run --as noise)
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load_drill(path), trial=trial)
    assert rec.info.scoring_version == rules
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(65.0)
    assert cite in {e.id for e in replay.released}  # shown to the trainee then
    replay.escalate("s1", "blind", cites=[cite])
    replay.run_to_end()
    rec.finish(score(rec.drill, rec.actions, rules=rules))
    monkeypatch.undo()
    return rec.session_id


def test_a_session_recorded_by_rules_5_is_rescored_verified_and_reviewed_on_the_ids_it_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Recorded before the change (rules 5), a noise session showed and cited the twin's own ``h3``; it re-scores
    unchanged and verifies on the authored ids, its review shows them, and a re-score by rules 6 (which would read
    its ids by position) is refused, not silently scored on other events."""
    from warroom.store.results import ResultsStore
    from warroom.store.review import RescoreStatus, default_drill_resolver, load_review, rescore, verify_sessions

    path = _held(tmp_path)
    session = _record(tmp_path, path, "h3", "5", monkeypatch)
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(session)
        assert (stored.scoring_version, stored.outcome, stored.actions[0].cites) == ("5", "false_alarm", ("h3",))
        again = rescore(store, default_drill_resolver())
        assert [r.status for r in again] == [RescoreStatus.UNCHANGED]
        checked = verify_sessions(store, default_drill_resolver())
        assert [(r.verdict.value, r.problems) for r in checked] == [("verified", ())]
        refused = rescore(store, default_drill_resolver(), rules="6")
        assert [r.status for r in refused] == [RescoreStatus.SKIPPED] and "same side of version 6" in refused[0].message
        assert store.get(session).scorecard == stored.scorecard
        review = load_review(store.get(session))
    assert "h3" in {e.id for e in review.drill.trace}


def test_a_session_recorded_by_rules_6_cites_the_shown_ids_and_rescores_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from warroom.store.results import ResultsStore
    from warroom.store.review import RescoreStatus, default_drill_resolver, load_review, rescore, verify_sessions

    path = _held(tmp_path)
    session = _record(tmp_path, path, "e07", "6", monkeypatch)
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(session)
        assert (stored.scoring_version, stored.outcome, stored.actions[0].cites) == ("6", "false_alarm", ("e07",))
        assert [r.status for r in rescore(store, default_drill_resolver())] == [RescoreStatus.UNCHANGED]
        checked = verify_sessions(store, default_drill_resolver())
        assert [(r.verdict.value, r.problems) for r in checked] == [("verified", ())]
        review = load_review(stored)
    assert not any(e.id.startswith("h") for e in review.drill.trace)
    assert [e.id for e in review.drill.trace][:8] == [f"e{k:02d}" for k in range(1, 9)]


def test_warroom_score_reads_a_journals_edition_for_its_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`warroom score` of a journal of rules 5 rebuilds the authored ids it played (the score is the stored one);
    a plain log citing ``h3`` scored by rules 6 is refused at its line: no event shown by position is ``h3``."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.store.results import ResultsStore

    path = _held(tmp_path)
    session = _record(tmp_path, path, "h3", "5", monkeypatch)
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(session)
    journal = next((tmp_path / "data" / "journals" / "done").glob(f"{session}*.jsonl"))
    run = CliRunner().invoke(main, ["score", str(path), str(journal), "--json", "--rules", "5"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["scorecard"] == stored.scorecard
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps({"t": 65.0, "kind": "escalate", "step": "s1", "cites": ["h3"]}) + "\n")
    refused = CliRunner().invoke(main, ["score", str(path), str(plain), "--as", "noise"])
    assert refused.exit_code == 1 and "h3" in refused.output


# -- what the debrief reads, and what is shown literally -------------------------------------------------------------


def test_the_debrief_names_the_events_by_the_ids_the_trainee_saw():
    """dependabot-merge-train's all-clear debrief names the twin's added event ``h04``: a noise trial's debrief names
    it as the table showed it (e17); harbor-outage-credit's fault debrief names its events as shown too (its e05 is
    shown e06)."""
    held = next(d for d in TWINNED if d.id == "dependabot-merge-train")
    authored = session_drill(held, None, PlayedAs.NOISE, by_position=False).all_clear
    played = session_drill(held, None, PlayedAs.NOISE).all_clear
    assert authored is not None and played is not None
    assert "s2 read the check runs (h04)" in authored.debrief
    assert "s2 read the check runs (e17)" in played.debrief
    assert not re.search(r"(?<![\w-])h\d+(?![\w-])", played.debrief)
    drill = next(d for d in TWINNED if d.id == "harbor-outage-credit")
    names = _names(drill, PlayedAs.SIGNAL)
    key, shown = (session_drill(drill, None, PlayedAs.SIGNAL, by_position=b).answer_key for b in (False, True))
    assert key is not None and shown is not None
    words = re.findall(r"(?<![\w-])e\d\d(?![\w-])", key.debrief)
    assert words and re.findall(r"(?<![\w-])e\d\d(?![\w-])", shown.debrief) == [names[w] for w in words]
    assert any(names[w] != w for w in words)


def _names(drill: Drill, trial: PlayedAs) -> dict[str, str]:
    authored, played = (session_drill(drill, None, trial, by_position=b) for b in (False, True))
    return {a.id: p.id for a, p in zip(authored.trace, played.trace, strict=True)}


@pytest.mark.parametrize("drill", TWINNED, ids=lambda d: d.id)
def test_what_is_shown_before_the_debrief_is_unchanged_but_the_ids(drill: Drill):
    """Every trace event keeps its content, time, step and agent: only its id and the ids it names change; the
    briefing, the plan and the probes' answers are the same text."""
    for trial in (PlayedAs.SIGNAL, PlayedAs.NOISE):
        authored, played = (session_drill(drill, 4, trial, by_position=b) for b in (False, True))
        refs = ("id", "call", "retry_of", "request")
        for a, p in zip(authored.trace, played.trace, strict=True):
            assert a.model_dump(exclude=set(refs)) == p.model_dump(exclude=set(refs))
        assert (authored.briefing, authored.plan) == (played.briefing, played.plan)
        assert [pr.model_dump(exclude={"answers"}) for pr in authored.probes] == [
            pr.model_dump(exclude={"answers"}) for pr in played.probes
        ]
        assert [[x.reveals for x in pr.answers] for pr in authored.probes] == [
            [x.reveals for x in pr.answers] for pr in played.probes
        ]


def test_a_probe_with_an_id_an_event_is_shown_as_is_refused_with_what_to_do():
    """A probe (or plan step) whose id is ``e03`` could not be told from the third event shown: the session's drill
    cannot be made, and the message says to give it another id."""
    from warroom.core.variants import VariantError

    drill = load_drill(example_path("full"))
    probe = drill.probes[0].model_copy(update={"id": "e03"})
    clash = drill.model_copy(update={"probes": [probe, *drill.probes[1:]]})
    with pytest.raises(VariantError, match=r"probe .e03. has an id that a trace event is shown as .*another id"):
        session_drill(clash, None, PlayedAs.SIGNAL)
    assert session_drill(clash, None, PlayedAs.SIGNAL, by_position=False).probes[0].id == "e03"
