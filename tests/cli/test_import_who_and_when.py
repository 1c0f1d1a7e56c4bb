"""`warroom import who-and-when`: Who&When records become playable drills (docs/importing.md).

Small records written for these tests live in tests/fixtures/who_and_when/ (good/ by kind, bad/ one per problem);
the integration test at the end imports the whole shared corpus when it is present and skips cleanly otherwise.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from locations import REPO, WHO_AND_WHEN
from screen_support import screen_text

from warroom.cli import main
from warroom.core.model import Drill
from warroom.core.replay import Replay
from warroom.importers import who_and_when as ww

FIXTURES = WHO_AND_WHEN
GOOD = FIXTURES / "good"
BAD = FIXTURES / "bad"


def _corpus_dir() -> Path | None:
    for base in (REPO.parent / "shared", Path("/work/shared")):
        d = base / "corpora" / "who-and-when"
        if d.is_dir():
            return d
    return None


def load(path: Path) -> Drill:
    """Load a drill file with the project's loader (issue 2), or the documented fallback while it is absent."""
    try:
        from warroom.core.loader import load_drill
    except ImportError:
        return Drill.model_validate(yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
    return load_drill(path)


def convert(path: Path, options: ww.ImportOptions | None = None) -> tuple[dict, Drill]:
    record = ww.parse_record(ww.read_record(path), path.stem, file=f"{path.parent.name}/{path.name}")
    return ww.convert_record(record, options)


def _headline_words(text: str) -> str:
    """The first few words of a message's first line (what a title built from it would start with)."""
    first = next(line for line in text.splitlines() if line.strip())
    return " ".join(first.split()[:4])


def by_id(drill: Drill) -> dict:
    return {e.id: e for e in drill.trace}


def text_of(event) -> str:
    return event.output if event.kind == "tool_result" else event.content


def play(drill: Drill, escalate_at: float | None, step: str | None = None) -> Replay:
    """Play the drill, escalating ``step`` (default: the origin) at ``escalate_at`` seconds, else never."""
    r = Replay(drill)
    r.advance(0)
    if escalate_at is not None:
        r.advance(max(0.0, escalate_at - r.now))
        r.escalate(step or drill.answer_key.fault.origin_step, "scripted")
    r.advance(1e9)
    return r


def assert_playable(drill: Drill) -> None:
    """The drill can be won, and a late or wrong escalation does worse than the ideal one."""
    key = drill.answer_key
    first_evidence = min(drill.event(e).t for e in key.evidence)
    assert first_evidence < key.deadline < drill.duration
    ideal = play(drill, first_evidence)
    assert ideal.contained and ideal.damage == 0
    late = play(drill, key.deadline + 0.5)
    assert late.contained and late.contained_at > key.deadline
    never = play(drill, None)
    assert not never.contained and never.damage == never.full_damage > late.damage
    # Trigger-happy: escalates the first plan step at the first event, before any evidence is on screen.
    trigger_happy = play(drill, 0.0, step=drill.plan[0].id)
    assert trigger_happy.false_escalations == 1 and not trigger_happy.contained


def run_checks_if_available(drill: Drill) -> None:
    try:
        from warroom.core.check import run_checks
    except ImportError:
        return
    report = run_checks(drill)
    assert not report.problems, report


# ---------------------------------------------------------------------------------------------------------------
# magentic-one mapping
# ---------------------------------------------------------------------------------------------------------------


def test_magentic_one_mapping():
    path = GOOD / "magentic-one" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _data, drill = convert(path)
    ev = by_id(drill)

    assert drill.id == "ww-magentic-one-mini"
    assert drill.briefing.goal == record["question"]
    assert [s.id for s in drill.plan] == ["s00", "s01", "s02", "s03"]
    # Each Orchestrator instruction starts a plan step titled by its agent and number. The plan is shown from 00:00,
    # so neither the title nor the objective may show the instruction before it is given: it is the step's first
    # trace event.
    assert [s.title for s in drill.plan[1:]] == [
        "WebSurfer, instruction 1",
        "ComputerTerminal, instruction 2",
        "Assistant, instruction 3",
    ]
    for step, i in ((drill.plan[1], 3), (drill.plan[3], 11)):
        instruction = record["history"][i]["content"]
        assert instruction not in step.objective and _headline_words(instruction) not in step.title
        assert ev[f"h{i:03d}"].content == instruction and ev[f"h{i:03d}"].step == step.id
    assert "WebSurfer carries out the Orchestrator's instruction that opens this step" in drill.plan[1].objective

    assert ev["h000"].kind == "log" and ev["h000"].step == "s00"
    assert ev["h001"].kind == "planner_call" and ev["h001"].usage.estimated  # initial plan
    assert ev["h002"].kind == "planner_call" and ev["h002"].usage is not None  # ledger
    assert ev["h003"].kind == "planner_call" and ev["h003"].usage is None and ev["h003"].step == "s01"  # instruction
    assert ev["h004"].kind == "executor_message" and ev["h004"].step == "s01"
    assert ev["h007"].kind == "log" and ev["h007"].source == "Orchestrator"  # "Next speaker ..."
    call, result = ev["h008-call"], ev["h008"]
    assert call.kind == "tool_call" and call.tool == "ComputerTerminal" and call.arguments == {"code_from": "h006"}
    assert result.kind == "tool_result" and result.call == "h008-call"
    assert result.status == "exitcode: 0 (execution succeeded)" and result.output == record["history"][8]["content"]
    assert ev["h009"].kind == "log" and ev["h009"].level == "warning"  # Stalled.... Replanning...
    assert ev["h010"].kind == "planner_call" and ev["h010"].usage is not None  # New plan
    assert ev["h012"].kind == "executor_message" and ev["h012"].step == "s03"
    assert ev["h014"].kind == "log" and ev["h014"].source == "Orchestrator (termination condition)"

    key = drill.answer_key
    assert key.fault.origin_step == "s01" and key.evidence == ["h004"]
    assert key.cascade == ["s02", "s03"]
    assert key.fault.summary == record["mistake_reason"]
    assert [e.event for e in key.damage.entries] == [f"h{i:03d}" for i in range(5, 15)]
    assert all(e.amount == 1 for e in key.damage.entries) and key.damage.unit == ww.DAMAGE_UNIT
    assert record["ground_truth"] in key.debrief and record["mistake_reason"] in key.debrief
    assert {"imported", "who-and-when", "magentic-one"} <= set(drill.tags)
    assert record["mistake_agent"] == "WebSurfer" and "WebSurfer" not in drill.tags  # the answer never leaks
    assert "magentic-one/mini.json" in drill.source and "estimate" in drill.source.lower()
    assert "estimate" in drill.briefing.context
    assert drill.difficulty == 2
    assert_playable(drill)


def test_magentic_one_mistake_in_the_initial_plan_is_step_s00():
    _, drill = convert(GOOD / "magentic-one" / "plan-mistake.json")
    assert [s.id for s in drill.plan] == ["s00"]
    key = drill.answer_key
    assert key.fault.origin_step == "s00" and key.evidence == ["h001"] and key.cascade == []
    assert [e.event for e in key.damage.entries] == ["h002", "h003", "h004"]
    assert drill.difficulty == ww.DEFAULT_DIFFICULTY  # no level in the record
    assert_playable(drill)


def test_record_that_stops_at_its_mistake_gets_a_closing_event():
    _, drill = convert(GOOD / "magentic-one" / "truncated.json")
    ev = by_id(drill)
    assert "end" in ev and ev["end"].kind == "log" and ev["end"].source == ww.IMPORTER_SOURCE
    assert ev["end"].t - ev["h004"].t >= ww.CLOSING_EVENT_MIN_GAP
    key = drill.answer_key
    assert key.evidence == ["h004"] and [e.event for e in key.damage.entries] == ["end"]
    assert "closing event" in drill.source
    assert "1954" in key.debrief  # a numeric ground truth is kept as text
    assert_playable(drill)


# ---------------------------------------------------------------------------------------------------------------
# captain-agent mapping
# ---------------------------------------------------------------------------------------------------------------


def test_captain_agent_mapping():
    path = GOOD / "captain-agent" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _, drill = convert(path)
    ev = by_id(drill)

    assert drill.id == "ww-captain-agent-mini"
    # The manager's plan opens step s01; every later expert turn is a plan step; terminal output joins its turn.
    assert [s.id for s in drill.plan] == ["s01", "s02", "s03", "s04"]
    assert drill.plan[0].title == "Excel_Expert: the manager's task and plan"
    assert "2. Extract street numbers." in drill.plan[0].objective
    # Expert turns are titled by expert and turn number: never from the turn's own (later) text.
    assert [s.title for s in drill.plan[1:]] == [
        "DataAnalysis_Expert, turn 2",
        "Verification_Expert, turn 3",
        drill.plan[3].title,
    ]
    assert drill.plan[3].title.endswith(", turn 4")
    assert "Count the clients with even street numbers" in drill.plan[1].objective
    assert "Street numbers may carry suffixes" in drill.plan[1].objective
    manager = record["history"][0]["content"]
    for step in drill.plan[1:]:
        # an expert step's objective is made of the manager's first message (what the planner knew), nothing later
        body = step.objective.split(": ", 1)[1].replace("\n\nConstraints and conditions for completion:\n", "\n")
        assert all(line.strip() in manager for line in body.splitlines() if line.strip())
    for _i, m in enumerate(record["history"][1:], start=1):
        for step in drill.plan:
            assert m["content"].strip()[:30] not in step.title + step.objective

    assert ev["h000"].kind == "planner_call" and ev["h000"].step == "s01" and ev["h000"].usage.estimated
    assert ev["h001-call"].arguments == {"code_from": "h000"} and ev["h001"].step == "s01"
    assert ev["h002"].kind == "executor_message" and ev["h002"].step == "s02"
    assert ev["h003-call"].tool == "Computer_terminal" and ev["h003-call"].arguments == {"code_from": "h002"}
    assert ev["h003"].step == "s02" and ev["h003"].status == "exitcode: 0 (execution succeeded)"
    assert ev["h005"].status == "exitcode: 1 (execution failed)"
    assert ev["h006"].step == "s04"
    assert ev["h001-call"].usage is None  # the code was written (and paid for) in the turn before

    key = drill.answer_key
    assert key.fault.origin_step == "s02" and key.evidence == ["h002"] and key.cascade == ["s03", "s04"]
    assert [e.event for e in key.damage.entries] == ["h003", "h004", "h005", "h006"]
    assert {"imported", "who-and-when", "captain-agent"} <= set(drill.tags)
    assert record["mistake_agent"] == "DataAnalysis_Expert" and "DataAnalysis_Expert" not in drill.tags
    assert drill.difficulty == 2  # level "2"
    assert record["ground_truth"] in key.debrief
    assert_playable(drill)


def test_captain_agent_mistake_at_step_zero():
    _, drill = convert(GOOD / "captain-agent" / "mistake-zero.json")
    key = drill.answer_key
    assert key.evidence == ["h000"]
    # The user's request opens the chat at 0 s, so the evidence is never the very first event.
    assert drill.trace[0].id == "task" and drill.trace[0].content == drill.briefing.goal
    assert drill.event("h000").t >= ww.MIN_EVENT_GAP
    assert key.fault.origin_step == "s01" and key.cascade == ["s02"]
    assert_playable(drill)


# ---------------------------------------------------------------------------------------------------------------
# Estimates: drill clock, tokens, prices, fault kind
# ---------------------------------------------------------------------------------------------------------------


def test_reading_time_paces_the_drill_clock_within_bounds():
    assert ww.reading_gap("") == ww.MIN_EVENT_GAP
    assert ww.reading_gap("word " * 40) == 10.0  # 40 words at 4 words a second
    assert ww.reading_gap("word " * 10_000) == ww.MAX_EVENT_GAP
    _, drill = convert(GOOD / "magentic-one" / "mini.json")
    times = [e.t for e in drill.trace]
    assert times[0] == 0 and times == sorted(times)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(ww.MIN_EVENT_GAP - 1e-9 <= g <= ww.MAX_EVENT_GAP + 1e-9 for g in gaps)


def test_token_estimates():
    assert ww.estimate_tokens(0) == 0 and ww.estimate_tokens(1) == 1 and ww.estimate_tokens(8) == 2
    path = GOOD / "magentic-one" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _, drill = convert(path)
    h = record["history"]
    usage = drill.event("h004").usage
    assert usage.output_tokens == math.ceil(len(h[4]["content"]) / 4)
    assert usage.input_tokens == math.ceil(sum(len(m["content"]) for m in h[:4]) / 4)
    assert usage.estimated


def test_input_tokens_are_capped_at_the_context_window(tmp_path):
    record = json.loads((GOOD / "magentic-one" / "mini.json").read_text(encoding="utf-8"))
    big = "lorem ipsum " * 50_000  # 600,000 characters
    record["history"][4]["content"] = big
    rec = ww.parse_record(record, "big")
    _, drill = ww.convert_record(rec)
    assert drill.event("h005").usage.input_tokens == ww.CONTEXT_WINDOW_TOKENS
    assert drill.event("h004").usage.output_tokens == math.ceil(len(big) / 4)
    assert drill.event("h004").content == big  # never truncated


def test_default_and_overridden_prices():
    _, drill = convert(GOOD / "magentic-one" / "mini.json")
    assert (drill.models.planner.input_usd_per_mtok, drill.models.planner.output_usd_per_mtok) == (5.0, 25.0)
    assert (drill.models.executor.input_usd_per_mtok, drill.models.executor.output_usd_per_mtok) == (1.0, 5.0)
    options = ww.ImportOptions(planner_price=ww.Price.parse("2.5/10"), executor_price=ww.Price.parse("0.15/0.6"))
    _, drill = convert(GOOD / "magentic-one" / "mini.json", options)
    assert (drill.models.planner.input_usd_per_mtok, drill.models.planner.output_usd_per_mtok) == (2.5, 10.0)
    assert (drill.models.executor.input_usd_per_mtok, drill.models.executor.output_usd_per_mtok) == (0.15, 0.6)
    assert "$2.50/$10 per million tokens" in drill.briefing.context  # prices as warroom cost writes them


@pytest.mark.parametrize("text", ["5", "a/b", "5/25/1", "-1/5", "nan/1", ""])
def test_bad_price_is_a_clear_error(text):
    with pytest.raises(ValueError, match=r"IN/OUT|non-negative"):
        ww.Price.parse(text)


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("The agent fabricated the population figures.", "fabricated_result"),
        ("The agent hallucinates the video ID.", "fabricated_result"),
        ("FileSurfer failed to access the article due to a 404 File Not Found error.", "http_error_ignored"),
        ("The expert didn't import the tables, leading to the exhaustion of the step limits.", "runaway_loop"),
        ("The expert directly reached a conclusion without verifying.", "premature_termination"),
        ("WebSurfer misinterpreted the Latin root.", "tool_output_misread"),
        ("The code is wrong.", "other"),
    ],
)
def test_fault_kind_from_the_annotators_reason(reason, kind):
    assert ww.guess_fault_kind(reason) == kind


# ---------------------------------------------------------------------------------------------------------------
# Verbatim text through YAML
# ---------------------------------------------------------------------------------------------------------------


def test_odd_text_round_trips_byte_for_byte(tmp_path):
    path = GOOD / "magentic-one" / "odd-text.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    report = ww.import_records([path], tmp_path)
    assert not report.failed
    drill = load(report.results[0].output)
    ev = by_id(drill)
    for i, message in enumerate(record["history"]):
        assert text_of(ev[f"h{i:03d}"]) == message["content"], i
    # The pure-Python loader reads the same text as the C loader.
    slow = Drill.model_validate(yaml.load(report.results[0].output.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    texts = [text_of(e) for e in drill.trace if e.kind != "tool_call"]
    assert [text_of(e) for e in slow.trace if e.kind != "tool_call"] == texts


def test_very_long_content_is_kept_whole(tmp_path):
    record = json.loads((GOOD / "captain-agent" / "mini.json").read_text(encoding="utf-8"))
    page = "".join(f"| row {i} | [link](https://example.org/{i}?q=[x]) | **{i}** |\n" for i in range(3000))
    assert len(page) > 100_000
    record["history"][3]["content"] = "exitcode: 0 (execution succeeded)\nCode output: " + page
    src = tmp_path / "captain-agent" / "long.json"
    src.parent.mkdir()
    src.write_text(json.dumps(record), encoding="utf-8")
    report = ww.import_records([src], tmp_path / "out")
    drill = load(report.results[0].output)
    assert drill.event("h003").output == record["history"][3]["content"]
    assert drill.event("h004").t - drill.event("h003").t == ww.MAX_EVENT_GAP


def test_yaml_has_no_aliases_even_for_shared_objects():
    shared = {"input_tokens": 1, "output_tokens": 2, "estimated": True}
    text = ww.dump_drill_yaml({"a": shared, "b": shared, "c": "x\ny"}, header="line one\nline two")
    assert "&" not in text and "*" not in text
    assert text.startswith("# line one\n# line two\n")
    assert yaml.safe_load(text) == {"a": shared, "b": shared, "c": "x\ny"}


# ---------------------------------------------------------------------------------------------------------------
# Bad records, files and the command line
# ---------------------------------------------------------------------------------------------------------------

BAD_MESSAGES = {
    "content-not-text.json": "history[3].content is a JSON array, not text",
    "empty-history.json": "field 'history' is empty",
    "missing-history.json": "missing field 'history'",
    "missing-question.json": "missing field 'question'",
    "mistake-not-number.json": "mistake_step 'three' is not a whole number",
    "mistake-out-of-range.json": "mistake_step 4 is out of range: history has 4 messages (0 to 3)",
    "not-json.json": "not JSON: Expecting value at line 1 column 15",
    "not-utf8.json": "not UTF-8 text: byte 0xff at offset 13 (line 1)",
    "top-level-array.json": "the top level is a JSON array, not an object",
    "unknown-kind.json": "cannot tell the record's kind",
    "unpaired-surrogate.json": "history[3].content contains an unpaired surrogate (\\ud800), which is not a character",
    "mistake-5000-digits.json": "mistake_step is a number with 5,000 digits; numbers are limited to 30 digits",
    "mistake-5000-digits-text.json": "mistake_step is a number with 5,000 digits; history has 4 messages (0 to 3)",
    "huge-number-elsewhere.json": "is_correct is a number with 5,000 digits; numbers are limited to 30 digits",
}


def test_every_bad_fixture_has_an_expected_message():
    assert {p.name for p in BAD.glob("*.json")} == set(BAD_MESSAGES)


@pytest.mark.parametrize("name", sorted(BAD_MESSAGES))
def test_bad_record_is_reported_with_a_clear_message(name, tmp_path):
    report = ww.import_records([BAD / name], tmp_path)
    [result] = report.results
    assert not result.ok and BAD_MESSAGES[name] in result.error
    assert list(tmp_path.iterdir()) == []


def test_cli_reports_bad_records_per_file_and_imports_the_rest(tmp_path):
    out = tmp_path / "new" / "drills"
    result = CliRunner().invoke(main, ["import", "who-and-when", str(GOOD), str(BAD), "--out", str(out)])
    assert result.exit_code == 1, result.output
    for name, message in BAD_MESSAGES.items():
        assert f"{BAD / name}: " in result.stderr and message in result.stderr
    good = sorted(GOOD.rglob("*.json"))
    n = len(good) + len(BAD_MESSAGES)
    assert f"{len(good)} of {n} records imported into {out}, {len(BAD_MESSAGES)} failed" in result.stdout
    written = sorted(p.name for p in out.glob("*.yaml"))
    assert written == sorted(f"ww-{p.parent.name}-{p.stem}.yaml" for p in good)
    for p in out.glob("*.yaml"):
        drill = load(p)
        assert_playable(drill)
        run_checks_if_available(drill)


def test_cli_exit_0_when_all_import_and_force_to_overwrite(tmp_path):
    runner = CliRunner()
    args = ["import", "who-and-when", str(GOOD / "captain-agent"), "--out", str(tmp_path), "-v"]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "2 of 2 records imported" in first.stdout and "ww-captain-agent-mini.yaml" in first.stdout
    target = tmp_path / "ww-captain-agent-mini.yaml"
    target.write_text("# edited by an author\n", encoding="utf-8")
    again = runner.invoke(main, args)
    assert again.exit_code == 1
    assert "already exists (use --force to overwrite it)" in again.stderr
    assert target.read_text(encoding="utf-8") == "# edited by an author\n"  # nothing lost without --force
    forced = runner.invoke(main, [*args, "--force"])
    assert forced.exit_code == 0 and load(target).id == "ww-captain-agent-mini"


def test_cli_prices(tmp_path):
    src = GOOD / "magentic-one" / "mini.json"
    result = CliRunner().invoke(
        main,
        ["import", "who-and-when", str(src), "--out", str(tmp_path), "--planner-price", "3/15",
         "--executor-price", "0.25/1.25"],
    )
    assert result.exit_code == 0, result.output
    drill = load(tmp_path / "ww-magentic-one-mini.yaml")
    assert drill.models.planner.output_usd_per_mtok == 15 and drill.models.executor.input_usd_per_mtok == 0.25


@pytest.mark.parametrize(
    "extra",
    [["--planner-price", "5"], ["--executor-price", "x/1"]],
)
def test_cli_bad_price_is_a_usage_error(extra, tmp_path):
    result = CliRunner().invoke(main, ["import", "who-and-when", str(GOOD), "--out", str(tmp_path), *extra])
    assert result.exit_code == 2 and "IN/OUT" in result.output
    assert list(tmp_path.iterdir()) == []


def test_cli_usage_errors(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["import", "who-and-when", str(tmp_path / "nope"), "--out", str(tmp_path)])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    empty = tmp_path / "empty"
    empty.mkdir()
    none = runner.invoke(main, ["import", "who-and-when", str(empty), "--out", str(tmp_path / "o")])
    assert none.exit_code == 2 and "no record files" in none.output
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    not_dir = runner.invoke(main, ["import", "who-and-when", str(GOOD), "--out", str(a_file)])
    assert not_dir.exit_code == 2 and "Traceback" not in not_dir.output
    no_out = runner.invoke(main, ["import", "who-and-when", str(GOOD)])
    assert no_out.exit_code == 2 and "--out" in no_out.output


# ---------------------------------------------------------------------------------------------------------------
# The shared corpus (skipped when it is not there)
# ---------------------------------------------------------------------------------------------------------------


def _assert_no_answer_before_the_debrief(drill: Drill, record: dict) -> None:
    """What a trainee sees before the debrief (public tags, plan-step titles and objectives, shown from 00:00) does
    not name the annotated agent as a tag, nor show any agent or instruction text later than the planner's plan."""
    assert record["mistake_agent"] not in drill.tags
    assert record["mistake_agent"] not in drill.public_tags
    known = {"magentic-one": 2, "captain-agent": 1}[drill.tags[2]]  # the request and initial plan / the manager
    for step in drill.plan[1:]:
        assert re.fullmatch(r".+, (instruction|turn) \d+", step.title), step.title
    for m in record["history"][known:]:
        first = next((ln.strip() for ln in m["content"].splitlines() if len(ln.strip()) >= 40), None)
        if first is None or first in record["question"] or first in record["history"][0]["content"]:
            continue  # a line that repeats the task or the plan was known from the start
        for step in drill.plan:
            assert first not in step.title and first not in step.objective, (drill.id, step.id)


def test_written_drill_files_have_the_normal_mode_of_new_files(tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        report = ww.import_records([GOOD / "captain-agent" / "mini.json"], tmp_path)
        again = ww.import_records([GOOD / "captain-agent" / "mini.json"], tmp_path, force=True)
        os.umask(0o027)
        other = ww.import_records([GOOD / "magentic-one" / "mini.json"], tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(report.results[0].output.stat().st_mode) == 0o644  # 0666 minus the umask, like `warroom new`
    assert stat.S_IMODE(again.results[0].output.stat().st_mode) == 0o644
    assert stat.S_IMODE(other.results[0].output.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ww-captain-agent-mini.yaml", "ww-magentic-one-mini.yaml"]


def test_not_utf8_names_the_byte_and_its_offset(tmp_path):
    bad = tmp_path / "bin.json"
    bad.write_bytes(b"\xef\xbb\xbf{\n  \"history\": \"\xc3\x28\"}")  # a BOM, then a broken two-byte sequence
    with pytest.raises(ww.RecordError, match=r"^not UTF-8 text: byte 0xc3 at offset 19 \(line 2\)$"):
        ww.read_record(bad)
    (tmp_path / "zero.json").write_bytes(b"\xff")
    with pytest.raises(ww.RecordError, match=r"^not UTF-8 text: byte 0xff at offset 0 \(line 1\)$"):
        ww.read_record(tmp_path / "zero.json")


def test_the_whole_corpus_imports_loads_and_plays(tmp_path):
    corpus = _corpus_dir()
    if corpus is None:
        pytest.skip("the shared Who&When corpus (../shared/corpora/who-and-when) is not present")
    report = ww.import_records([corpus], tmp_path)
    assert [(r.source, r.error) for r in report.failed] == []
    assert len(report.imported) == len(list(corpus.rglob("*.json")))
    for result in report.results:
        record = json.loads(result.source.read_text(encoding="utf-8"))
        drill = load(result.output)
        ev = by_id(drill)
        width = max(3, len(str(len(record["history"]) - 1)))
        for i, message in enumerate(record["history"]):
            assert text_of(ev[f"h{i:0{width}d}"]) == message["content"], (result.source, i)
        assert drill.answer_key.evidence == [f"h{int(record['mistake_step']):0{width}d}"]
        _assert_no_answer_before_the_debrief(drill, record)
        assert_playable(drill)
        run_checks_if_available(drill)


# ---------------------------------------------------------------------------------------------------------------
# An imported drill in the terminal UI
# ---------------------------------------------------------------------------------------------------------------


async def test_an_imported_drill_plays_to_a_debrief_in_the_tui(tmp_path):
    from textual.clock import MockClock

    from warroom.tui.app import WarroomApp
    from warroom.tui.debrief import DebriefScreen
    from warroom.tui.live import WarRoomScreen
    from warroom.tui.services import Services, load_entry

    report = ww.import_records([GOOD / "magentic-one" / "odd-text.json"], tmp_path / "drills")
    entry = load_entry(report.results[0].output)
    assert entry.ok, entry.problems
    drill_text = entry.drill.event("h007").content
    assert drill_text.startswith("[bold red]not markup[/]")
    app = WarroomApp(Services(trainee="tester", data_dir=tmp_path / "data"), start=entry, clock=MockClock())

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)

        async def run_until(t: float) -> None:
            while live.replay.now < t and not live.replay.ended:
                app.clock.set_time(app.clock.time + 0.5)
                live.tick()
            await pilot.pause()

        await run_until(entry.drill.event("h007").t)
        assert drill_text in screen_text(app)  # shown literally, not read as Rich markup
        # Escalate the origin step (s01, typed in the dialog) with a reason, cite the evidence (tab to the evidence
        # list, type its id, space ticks it), and confirm.
        evidence = entry.drill.answer_key.evidence[0]
        assert evidence != "h007"  # the newest event (cited to begin with) is not the evidence
        await pilot.press("e", "s", "0", "1", "tab", "w", "e", "b", "tab", *evidence, "space", "enter", "y")
        assert live.replay.contained and live.replay.actions[-1].step == "s01"
        assert live.replay.actions[-1].cites == ("h007", evidence)
        await run_until(live.replay.now + 2)
        assert isinstance(app.screen, DebriefScreen)
        assert "CONTAINED" in screen_text(app)


def test_record_files_are_found_in_natural_order_by_the_library_search(tmp_path):
    for name in ("10.json", "2.json", "1.json", "notes.txt", "a.yaml"):
        (tmp_path / name).write_text("{}")
    assert [p.name for p in ww.find_record_files([tmp_path])] == ["1.json", "2.json", "10.json"]
    with pytest.raises(FileNotFoundError):
        ww.find_record_files([tmp_path / "missing"])


def test_the_checked_drill_is_the_yaml_written(tmp_path):
    """convert_record loads back the very YAML text it writes, so a drill that the dump would break is refused."""
    from warroom.core.loader import load_drill_text

    files = ww.find_record_files([GOOD])
    record = ww.parse_record(ww.read_record(files[0]), files[0].stem)
    data, drill = ww.convert_record(record)
    assert drill == load_drill_text(ww.dump_drill_yaml(data))


def test_estimated_costs_are_written_as_usd_everywhere_else():
    """USD as docs/scoring.md writes it (four significant digits below a dollar), not cut to four decimals."""
    _, drill = convert(GOOD / "magentic-one" / "mini.json")
    notes = {e.event: e.note for e in drill.answer_key.damage.entries}
    # h005: a planner call of 410 input and 137 output tokens at $5/$25 per million: (2,050 + 3,425) / 1e6 USD.
    assert notes["h005"].endswith("(model call, est. $0.005475)")
    assert notes["h012"].endswith("(model call, est. $0.000694)")
    assert "about $0.009594 of estimated model calls" in drill.answer_key.debrief
