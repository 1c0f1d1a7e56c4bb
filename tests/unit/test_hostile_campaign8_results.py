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
