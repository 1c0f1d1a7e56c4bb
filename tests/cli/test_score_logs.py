"""`warroom score DRILL LOG...` (issue 31): action logs scored from outside the war room with the function the war
room uses; journals and plain JSON Lines; text and --json; every refused log as `path:line: message`, never a
traceback, exit status 1; --rules, --seed, --as (a noise trial plays the drill's twin)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from locations import REPO

from warroom.cli import main
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, PlayedAs, twin_of
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.core.variants import VariantError, apply_variant, session_drill
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore

DRILLS = bundled_drills_dir()
REFUNDS = DRILLS / "duplicate-charge-refunds.yaml"
CLEAR = REPO / "tests" / "fixtures" / "all-clear" / "clickstream-backfill.yaml"  # an all-clear drill (as bundled once)
REPLIES = DRILLS / "late-delivery-replies.yaml"  # a drill with variants


def score_cli(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, ["score", *args], input=input, catch_exceptions=False)


def write(path: Path, *lines: object) -> Path:
    """``lines`` as a log: a str or bytes as it is, anything else as JSON, each ended by a newline."""
    raw = [line if isinstance(line, bytes) else (line if isinstance(line, str) else json.dumps(line)).encode()
           for line in lines]  # fmt: skip
    path.write_bytes(b"".join(line + b"\n" for line in raw))
    return path


def esc(t: float, step: str, *cites: str) -> dict:
    return {"t": t, "kind": "escalate", "step": step, "cites": list(cites)}


def test_the_auditors_example_of_the_docs_prints_what_the_docs_say(tmp_path: Path):
    """docs/scoring.md, "Scoring action logs from outside": its shell lines run as written, and print its output."""
    doc = (REPO / "docs" / "scoring.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Scoring action logs from outside: `warroom score`"):]
    blocks = r"```sh\n(.*?)```\n\nprints one line per log[^\n]*\n\n```\n(.*?)```"
    commands, output = re.findall(blocks, section, re.S)[0]
    venv_bin = Path(__import__("sys").executable).parent
    env = {"PATH": f"{venv_bin}:/usr/bin:/bin", "HOME": str(tmp_path), "WARROOM_DATA_DIR": str(tmp_path / "data")}
    run = subprocess.run(["bash", "-c", commands], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == output


def test_logs_scored_as_the_war_room_scores_them_with_their_response(tmp_path: Path):
    hit = write(tmp_path / "hit.jsonl", esc(12, "s1", "e06"))
    late = write(tmp_path / "late.jsonl", {"t": 5, "kind": "inspect", "event": "e02"}, esc(45, "s1", "e06"))
    quit_ = write(tmp_path / "quit.jsonl", {"t": 10, "kind": "quit"})
    r = score_cli(str(REFUNDS), str(hit), str(late), str(quit_))
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        f"{hit}: 100/100; contained; response: hit; time to detect 0 s; damage $0.00 of $14,021.00; 0 false "
        "escalations (scoring rules version 6)",
        f"{late}: 37/100; contained late; response: miss; time to detect 33 s; damage $4,413.00 of $14,021.00; 0 "
        "false escalations (scoring rules version 6)",
        f"{quit_}: 0/100; abandoned; response: miss; damage $0.00 of $14,021.00; 0 false escalations (scoring rules "
        "version 6)",
        "3 logs: 3 scored, 0 refused",
    ]


def test_json_is_one_object_per_log_per_line_with_the_scorecard_the_function_gives(tmp_path: Path):
    drill = session_drill(load_drill(REFUNDS), None, PlayedAs.SIGNAL)  # its ids by position, as a log names them
    log = write(tmp_path / "a.jsonl", esc(14, "s2", "e06"), esc(30, "s1", "e06"))
    early = write(tmp_path / "b.jsonl", esc(5, "s1"))
    r = score_cli("duplicate-charge-refunds", str(log), str(early), "--json")
    assert r.exit_code == 0, r.output
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    expected = score(drill, [Action(t=14, kind=ActionKind.ESCALATE, step="s2", cites=("e06",)),
                             Action(t=30, kind=ActionKind.ESCALATE, step="s1", cites=("e06",))])
    assert first == {
        "log": str(log), "drill_id": "duplicate-charge-refunds", "seed": None, "rules": "6", "outcome": "contained",
        "response": "localisation_error", "total": 72, "scorecard": json.loads(json.dumps(expected.to_dict())),
    }
    # an escalation before the evidence: stored as false_alarm, an early escalation, a localisation error
    assert (second["outcome"], second["response"], second["total"]) == ("false_alarm", "localisation_error", 0)
    assert second["scorecard"]["lines"][0].startswith("Outcome: early escalation.")


def test_a_noise_trial_and_its_responses(tmp_path: Path):
    nothing = write(tmp_path / "nothing.jsonl")
    alarm = write(tmp_path / "alarm.jsonl", esc(20, "s1"))
    quit_ = write(tmp_path / "quit.jsonl", {"t": 10, "kind": "quit"})
    r = score_cli(str(CLEAR), str(nothing), str(alarm), str(quit_), "--json", "--as", "noise")
    assert r.exit_code == 0, r.output
    got = [(o["outcome"], o["response"], o["total"]) for o in map(json.loads, r.stdout.splitlines())]
    assert got == [
        ("all_clear_held", "correct_rejection", 100), ("false_alarm", "false_alarm", 40), ("abandoned", "abandoned", 0)
    ]


#: A value an action refuses is placed at its key's column (a note too long, a typo in ``kind``, an extra key).
BAD = {
    "not-json.jsonl": (['{"t": 1, "kind": "pause"}', "{not json"], "2:2", "not a JSON line (Expecting property name"),
    "a-list.jsonl": (["[1, 2]"], "1:1", 'not a JSON object: each line is one action, {"t": ..., "kind": ...}'),
    "typo.jsonl": ([{"t": 5, "kind": "escalat", "step": "s1"}], "1:10", "not an action: kind: Input should be"),
    "extra-key.jsonl": ([{"t": 5, "kind": "pause", "who": "me"}], "1:27", "not an action: who: Extra inputs are not"),
    "nan.jsonl": (['{"t": NaN, "kind": "pause"}'], "1:2", "not an action: t:"),
    "backwards.jsonl": ([esc(12, "s1", "e06"), {"t": 10, "kind": "flag", "event": "e02"}], "2:1",
                        "action 2 (flag at 10 s) comes before the drill clock (12 s)"),
    "unreleased.jsonl": ([esc(5, "s1", "e11")], "1:1", "action 1 (escalate at 5 s): trace event 'e11' has not been "
                                                  "released yet"),
    "unknown-step.jsonl": ([esc(5, "s9")], "1:1", "action 1 (escalate at 5 s): no plan step 's9' in drill"),
    "after-containment.jsonl": ([esc(12, "s1", "e06"), esc(13, "s2", "e06")], "2:1",
                                "action 2 (escalate at 13 s): the incident is already contained"),
    "after-the-end.jsonl": ([{"t": 5, "kind": "pause"}, {"t": 500, "kind": "resume"}], "2:1", "the drill has ended"),
    "not-utf8.jsonl": ([b'{"t": 5, "kind": "flag", "event": "\xe901"}'], "1:36",
                       "the log is not UTF-8 text (byte 0xe9 here)"),
    "two-kinds.jsonl": (['{"t": 5, "kind": "pause", "kind": "quit"}'], "1:27",  # two readers, two actions
                        'not a JSON line (the key "kind" is given twice in one object'),
    "a-line-of-type-end-alone.jsonl": ([{"type": "end"}], "1:1", "a line of type 'end' where an action was expected"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_refused_log_gets_path_line_col_message_and_exit_1_and_the_others_are_scored(tmp_path: Path, name: str):
    lines, at, message = BAD[name]
    bad = write(tmp_path / name, *lines)
    good = write(tmp_path / "good.jsonl", esc(12, "s1", "e06"))
    r = score_cli(str(REFUNDS), str(bad), str(good))
    assert r.exit_code == 1
    (refused,) = r.stderr.splitlines()
    assert refused.startswith(f"{bad}:{at}: ") and message in refused, refused
    assert f"{good}: 100/100; contained; response: hit" in r.stdout and "2 logs: 1 scored, 1 refused" in r.stdout
    r = score_cli(str(REFUNDS), str(bad), "--json")
    assert r.exit_code == 1
    (out,) = map(json.loads, r.stdout.splitlines())
    assert out["log"] == str(bad) and out["error"] == refused and "Traceback" not in r.output


def test_the_first_problem_by_line_is_the_one_reported(tmp_path: Path):
    # line 2 is an escalation after the containment, line 3 no JSON: line 2 is reported
    bad = write(tmp_path / "two.jsonl", esc(12, "s1", "e06"), esc(13, "s2", "e06"), "not json")
    r = score_cli(str(REFUNDS), str(bad))
    assert r.stderr.startswith(f"{bad}:2:1: action 2 (escalate at 13 s): the incident is already contained")


def test_files_that_are_no_logs_are_refused_without_a_traceback(tmp_path: Path):
    r = score_cli(str(REFUNDS), str(tmp_path / "missing.jsonl"), str(tmp_path))
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        f"{tmp_path / 'missing.jsonl'}: cannot read it: No such file or directory",
        f"{tmp_path}: is a folder, not a log file",
    ]


def test_standard_input_is_a_log():
    r = score_cli(str(REFUNDS), "-", input=json.dumps(esc(12, "s1", "e06")) + "\n")
    assert r.exit_code == 0 and r.stdout.startswith("-: 100/100; contained; response: hit")


def test_a_journal_is_scored_as_the_session_was(tmp_path: Path):
    drill = load_drill(REFUNDS)
    rec = SessionRecorder.start(tmp_path / "data", "ann", REFUNDS, drill)
    drill = rec.drill  # its ids by position, as the session plays them
    replay = Replay(drill, on_action=rec.record)
    replay.advance(12)
    replay.inspect("e06")
    replay.escalate("s1", "stale snapshot", ("e06", "e05"))
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(rec.session_id)
    r = score_cli(str(REFUNDS), str(rec.journal_path), "--json")
    assert r.exit_code == 0, r.output
    (out,) = map(json.loads, r.stdout.splitlines())
    assert out["scorecard"] == stored.scorecard and out["response"] == "hit"
    other = score_cli(str(DRILLS / "held-orders-release.yaml"), str(rec.journal_path))
    assert other.exit_code == 1
    assert other.stderr.startswith(
        f"{rec.journal_path}:1:1: this journal is of drill 'duplicate-charge-refunds', not 'held-orders-release'"
    )


def test_a_journal_of_a_variant_is_scored_on_its_seed_and_seed_overrides_it(tmp_path: Path):
    base = load_drill(REPLIES)
    rec = SessionRecorder.start(tmp_path / "data", "ann", REPLIES, base, seed=6)
    variant = rec.drill
    assert variant == session_drill(base, 6, PlayedAs.SIGNAL)  # its variant, its ids by position (it has a twin)
    assert [e.t for e in variant.trace] == [e.t for e in apply_variant(base, 6).trace]
    first = min(variant.event(e).t for e in variant.answer_key.evidence)
    replay = Replay(variant, on_action=rec.record)
    replay.advance_to(first)
    replay.escalate(variant.answer_key.fault.origin_step, "", tuple(variant.answer_key.evidence[:1]))
    replay.run_to_end()
    rec.finish(score(variant, rec.actions))
    r = score_cli(str(REPLIES), str(rec.journal_path), "--json")
    (out,) = map(json.loads, r.stdout.splitlines())
    assert (out["seed"], out["total"], out["response"]) == (6, 100, "hit")
    plain = [json.loads(line)["action"] for line in rec.journal_path.read_text().splitlines() if '"action"' in line]
    log = write(tmp_path / "plain.jsonl", *plain)  # the same actions without the start line: seed given by hand
    assert json.loads(score_cli(str(REPLIES), str(log), "--json", "--seed", "6").stdout)["total"] == 100


def test_rules_n_scores_by_that_edition(tmp_path: Path):
    everything = write(tmp_path / "everything.jsonl", esc(20, "s1", "e01", "e02", "e03", "e04", "e05", "e06"))
    now = json.loads(score_cli(str(REFUNDS), str(everything), "--json").stdout)
    old = json.loads(score_cli(str(REFUNDS), str(everything), "--json", "--rules", "3").stdout)
    assert (now["outcome"], now["total"], now["response"]) == ("right_step_unsupported", 10, "localisation_error")
    assert (old["outcome"], old["total"], old["response"], old["rules"]) == ("contained", 92, None, "3")
    bad = score_cli(str(REFUNDS), str(everything), "--rules", "9")
    assert bad.exit_code == 2 and "scoring rules version '9' is not known to this warroom" in bad.output


def test_as_noise_scores_the_twin_and_a_drill_cannot_be_played_as_what_it_is_not(tmp_path: Path):
    log = write(tmp_path / "log.jsonl", esc(12, "s1", "e06"))
    signal = json.loads(score_cli(str(REFUNDS), str(log), "--as", "signal", "--json").stdout)
    noise = json.loads(score_cli(str(REFUNDS), str(log), "--as", "noise", "--json").stdout)
    assert signal["response"] != noise["response"] and noise["response"] == "false_alarm"
    r = score_cli(str(CLEAR), str(log), "--as", "signal")
    assert r.exit_code == 1 and r.stdout == ""
    assert "--as signal: drill clickstream-backfill cannot be played as a signal trial: an all-clear drill" in r.stderr
    # a drill with a fault and no twin cannot be a noise trial (docs/scoring.md says so in these words)
    bare = tmp_path / "no-twin.yaml"
    bare.write_text(REFUNDS.read_text(encoding="utf-8").split("\ntwin:")[0] + "\n", encoding="utf-8")
    r = score_cli(str(bare), str(log), "--as", "noise")
    assert r.exit_code == 1 and r.stdout == ""
    assert "--as noise: drill duplicate-charge-refunds cannot be played as a noise trial: it has no twin" in r.stderr


def test_the_drill_a_log_is_scored_on():
    drill, clear = load_drill(REFUNDS), load_drill(CLEAR)
    assert session_drill(drill, None, PlayedAs.SIGNAL, by_position=False) == drill
    assert session_drill(drill, None, PlayedAs.NOISE, by_position=False) == twin_of(drill)
    assert session_drill(clear, None, PlayedAs.NOISE) == clear  # an all-clear drill keeps its ids
    with pytest.raises(VariantError, match="no fault"):
        session_drill(clear, None, PlayedAs.SIGNAL)
    replies = load_drill(REPLIES)
    assert session_drill(replies, 3, PlayedAs.SIGNAL, by_position=False) == apply_variant(replies, 3)
    # by position (rules 6): the same trace, its events e01, e02, ... in order (the count query e30, e31 shown as
    # e03, e04), its re-plan numbered on after it
    played = session_drill(drill, None, PlayedAs.SIGNAL)
    assert [(e.t, e.kind) for e in played.trace] == [(e.t, e.kind) for e in drill.trace]
    assert [e.id for e in played.trace] == [f"e{k:02d}" for k in range(1, 25)]
    assert [e.id for e in played.answer_key.replan] == ["e25"] and played.answer_key.evidence == ["e06"]
