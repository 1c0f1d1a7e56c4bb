"""An eighth fresh hostile campaign on results and scores (issue 30; docs/cohorts.md, "What a trainee can and cannot
do to their results"; docs/scoring.md, "What trainees that do not read get"; docs/sessions.md, "Cohort
statistics"): scripted trainees that match the briefing's words, read the picker's metadata, spot the event that
differs most from its siblings by a cheap statistic, the projection's seams or the executor's shortest report; the
store and the statistics under sessions that are not verified, clocks and changed drill files. Each case it found,
with the right behaviour."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from stats_support import blind_trainees_below_chance

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.core.model import Action, ActionKind

#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="guess", cites=("e02",))


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout


def test_a_first_attempt_left_out_as_not_verified_still_makes_the_later_sessions_replays(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """A trainee plays a drill poorly in a drill set of their own (practice, their own client), reads its debrief,
    then takes it in assessment and contains it. Their export, imported with ``--trainee``, holds both; ``scores
    verify`` finds the set session unverifiable (its trial cannot be checked) and the assessment session right. The
    first attempt was looked for among the verified sessions only, so the assessment session, a replay played
    knowing the debrief, counted as a fresh trial: a hit. Leaving a session out of the figures never makes a later
    session of the same drill a first attempt: the first attempt is found among every stored session (as it is
    whatever ``--since`` and ``--set`` say), and when it is left out the pair has no trial, its sessions replays. On
    both back ends (the summary counts in SQL, the report session by session)."""
    own, data = tmp_path / "own", tmp_path / "class"
    monkeypatch.delenv("WARROOM_STORE", raising=False)  # the trainee's own SQLite store
    poor = play(own, "ann", [LATE], mode="practice").session_id
    good = play(own, "ann", GOOD, mode="assessment").session_id
    lines = [json.loads(x) for x in _cli("store", "export", "--data-dir", str(own))[1].splitlines() if x]
    if backend_url is not None:  # the class's store
        monkeypatch.setenv("WARROOM_STORE", backend_url)
    handed = tmp_path / "ann.jsonl"
    handed.write_text("".join(json.dumps(x | {"set_id": "my-set"} if x["session_id"] == poor else x) + "\n"
                              for x in lines))  # fmt: skip
    assert _cli("store", "import", "--trainee", "ann", str(handed), "--data-dir", str(data))[0] == 0
    code, out = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
    verdicts = {v["session_id"]: v["verdict"] for v in json.loads(out)}
    assert code == 1 and verdicts == {poor: "unverifiable", good: "verified"}
    for mode in ("auto", "all"):
        summary = json.loads(_cli("scores", "summary", "--mode", mode, "--format", "json", "--data-dir", str(data))[1])
        (ann,) = summary["trainees"]
        assert (ann["trials"], ann["replays"], ann["hits"], ann["signal_trials"]) == (0, 1, 0, 0), ann
        assert summary["counted"]["trials"] == 0 and summary["counted"]["replays"] == 1
        assert summary["unverified"]["ids"] == [poor]
    report = tmp_path / "report.html"
    code, _ = _cli("report", "--mode", "all", "--output", str(report), "--data-dir", str(data))
    page = report.read_text()
    assert code == 0 and "0 trials (each trainee" in page and "1 replay listed apart" in page, page


@pytest.mark.timeout(60)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_in_a_drill_files_place_is_refused_by_verify_rescore_and_review_never_waited_on(tmp_path: Path):
    """A drill file replaced by a FIFO (a faulty world, or a hostile one on a shared drill folder): ``scores verify``
    hashed the file with a plain open, which waits for a writer for ever, so the facilitator's verify (and
    ``rescore``) hung. The file is opened without waiting and refused as not a regular file: the session
    cannot be verified, saying what the path is and what to do."""
    from store_support import copy_drill

    drills, data = tmp_path / "drills", tmp_path / "data"
    path = copy_drill(drills, "dup-private")
    play(data, "ann", GOOD, drill_path=path, mode="assessment")
    path.unlink()
    os.mkfifo(path)
    code, out = _cli("--drills", str(drills), "scores", "verify", "--format", "json", "--data-dir", str(data))
    (verdict,) = json.loads(out)
    assert code == 1 and verdict["verdict"] == "unverifiable", verdict
    assert "is a FIFO, not a regular file; put the drill file back" in " ".join(verdict["problems"])
    result = CliRunner().invoke(main, ["--drills", str(drills), "scores", "rescore", "--yes", "--data-dir", str(data)])
    assert "Traceback" not in result.output and "is a FIFO, not a regular file" in result.output, result.output


# -- scripted trainees that do not read the trace (docs/scoring.md, "What trainees that do not read get") ------------


def _words(text: str) -> set[str]:
    import re

    return set(re.findall(r"[a-z][a-z0-9_-]{3,}", text.casefold()))


def _output_keys(event) -> list[str]:
    value = getattr(event, "output", None)
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return []
    return list(value) if isinstance(value, dict) else []


def _pick(bot: str, drill, replay):
    """The event a scripted trainee escalates on, or None to wait. ``briefing``: the first tool result sharing 4 or
    more words with the briefing; ``seam``: the first result of a tool whose top-level keys differ from that tool's
    results before it (a projected fault adds a key, as `warroom project`'s templates do); ``shortest``: at 30% of the
    trace, the executor report with the shortest text."""
    results = [e for e in replay.released if e.kind in ("tool_result", "command_result") and e.step]
    if bot == "briefing":
        brief = _words(" ".join(str(v) for v in drill.briefing.model_dump().values() if v))
        return next((e for e in results if len(_words(e.model_dump_json()) & brief) >= 4), None)
    if bot == "seam":
        calls = {e.id: getattr(e, "tool", None) for e in replay.released if e.kind == "tool_call"}
        seen: dict[str | None, set[tuple[str, ...]]] = {}
        for e in results:
            tool, keys = calls.get(getattr(e, "call", None)), tuple(sorted(_output_keys(e)))
            if tool in seen and keys not in seen[tool]:
                return e
            seen.setdefault(tool, set()).add(keys)
        return None
    reports = [e for e in replay.released if e.kind == "executor_report" and e.step]
    if replay.now < 0.3 * drill.duration or len(reports) < 2:
        return None
    return min(reports, key=lambda e: len(e.content or ""))


@pytest.mark.parametrize("bot", ["briefing", "seam", "shortest"])
def test_trainees_matching_the_briefing_or_a_seam_or_reading_report_lengths_are_below_chance(bot: str, real_noise_draw):
    """Campaign 8 played 82 more scripted trainees that read no event's content over every bundled drill in
    assessment (docs/scoring.md's table): the briefing's words matched against each event, the picker's metadata,
    the event most unlike its siblings by a cheap statistic (distinct characters, digits, length, JSON keys, depth),
    the seams a projected fault might leave (a key no other result of its tool has, key order, separators, number
    formats, a time off the host's grid), and the executor report with the shortest or longest text. None is above
    chance. Three of them here, over 5 trainees (the campaign's seeds): each wins some signal trials, and d′ as
    ``warroom scores summary`` computes it is below 0 for every trainee."""
    blind_trainees_below_chance(bot, lambda drill, replay: _pick(bot, drill, replay), seed=8)


def test_the_consoles_trainee_page_counts_a_drill_practised_before_its_assessment_as_a_replay():
    """The facilitator's page of one trainee (``/console/trainees/NAME``) promises ``warroom scores summary``'s
    figures, but looked for each drill's first attempt among the counted mode's sessions only: a drill practised
    (a miss, its debrief read) and then played in assessment (a hit) counted there as an assessment trial, a hit,
    where the summary counts a replay. Nor may a first attempt left out as not verified (``within``) make the next
    session of its drill a trial. The page's figures, and each point of its series, are the summary's."""
    from warroom.console import progress
    from warroom.core.stats import SessionFacts, summarize

    def fact(drill: str, hour: int, mode: str, response: str, sid: str) -> SessionFacts:
        hit = response == "hit"
        at = f"2026-12-01T{hour:02d}:00:00.000000+00:00"
        outcome = "contained" if hit else "missed"
        return SessionFacts("ann", drill, True, outcome, 100 * hit, at, mode=mode, session_id=sid, response=response)

    facts = [fact("a", 10, "practice", "miss", "s1"), fact("a", 11, "assessment", "hit", "s2"),
             fact("b", 12, "assessment", "miss", "s3"), fact("c", 13, "assessment", "miss", "s4"),
             fact("c", 14, "assessment", "hit", "s5")]  # fmt: skip
    within = lambda f: f.session_id != "s4"  # noqa: E731 - s4, the first attempt at c, is not verified
    made = progress("ann", facts, lambda drill: None, within)
    (summary,) = summarize(facts, modes={"assessment"}, within=within).trainees
    got = made.overall
    assert (got.trials, got.hits, got.replays) == (summary.trials, summary.hits, summary.replays) == (1, 0, 2)
    assert [(p.session_id, p.stats.trials, p.stats.hits) for p in made.points] == [
        ("s2", 0, 0), ("s3", 1, 0), ("s5", 1, 0)]  # fmt: skip
    assert made.left_out == 1  # the practice session, of the mode not counted
