"""`warroom import chat --ground-truth`: annotated failure datasets (AgentRx) as keyed drills (docs/importing.md,
"Annotated failure datasets"). The fixtures in tests/fixtures/agentrx are small runs in the corpus's shape; the
shared corpus itself, when present, is imported whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_support import corpus_dir
from locations import TESTS

from warroom.core.author import run_checks
from warroom.core.load import load_drill
from warroom.importers.chat import import_chats
from warroom.importers.kit import Price, TraceOptions

AGENTRX = TESTS / "fixtures" / "agentrx"
#: The shared AgentRx corpus (a copy of the public benchmark's subset), when this machine has it.
CORPUS = corpus_dir("agentrx")


def _import(runs: Path, truth: Path, out: Path):
    return import_chats([runs], out, TraceOptions(ground_truth=truth))


def test_tau_bench_run_is_keyed_from_its_root_cause(tmp_path: Path) -> None:
    report = _import(AGENTRX / "tau-retail" / "failed", AGENTRX / "tau-retail" / "ground_truth.json", tmp_path)
    written = {r.drill_id: r.output for r in report.imported}
    assert list(written) == ["chat-7"]
    drill = load_drill(written["chat-7"])
    key = drill.answer_key
    assert key is not None
    # The root cause is failure 2, at step 8: message 8 counted from 1 is m007, the assistant's misreading.
    assert key.fault.origin_step == "u01"
    assert key.fault.kind.value == "tool_output_misread"
    assert key.fault.summary == "At step 8, the assistant said there was one charge though list_charges returned two."
    assert list(key.evidence) == ["m007"]
    assert key.cascade == ["u02"]
    assert [(d.event, d.amount) for d in key.damage.entries] == [("m009", 1)]
    assert key.damage.unit == "wasted agent turns"
    times = {e.id: e.t for e in drill.trace}
    # Re-timed: the next event comes 10 s after the evidence; the deadline is a second before the first damage.
    assert times["m008"] - times["m007"] == pytest.approx(10.0)
    assert key.deadline == pytest.approx(times["m009"] - 1.0)
    assert "Re-timed for reading: the events after m007" in drill.source
    assert "category 'Misinterpretation of Tool Output' read as tool_output_misread" in drill.source
    assert "step 3 (Instruction Adherence Failure)" in key.debrief  # the other failure, in the debrief only
    assert "Had the assistant read both charges" in key.debrief
    assert run_checks(drill).passed


def test_a_failure_in_the_users_request_is_refused_with_the_reason(tmp_path: Path) -> None:
    report = _import(AGENTRX / "tau-retail" / "failed", AGENTRX / "tau-retail" / "ground_truth.json", tmp_path)
    [failed] = report.failed
    assert failed.source.name == "8.json"
    assert failed.error == ("the failure is in the user's request, not in what an agent did (step 4, Underspecified "
                            "User Intent, failed agent User): a trainee watching the agents has no plan step to "
                            "escalate")
    assert not (tmp_path / "chat-8.yaml").exists()


def test_magentic_one_team_run_is_keyed_at_the_agents_turn(tmp_path: Path) -> None:
    report = _import(AGENTRX / "magentic-one", AGENTRX / "magentic-one" / "ground_truth.json", tmp_path)
    assert not report.failed  # ground_truth.json itself, in the folder, is not taken for a run
    [result] = report.imported
    drill = load_drill(result.output)
    assert [(a.name, a.role.value) for a in drill.agents] == [
        ("user", "human"), ("Orchestrator", "planner"), ("WebSurfer", "executor"), ("Assistant", "sub-agent")]
    assert [(s.id, s.title) for s in drill.plan] == [
        ("s00", "Orchestrator: the initial plan"), ("s01", "WebSurfer, instruction 1"),
        ("s02", "Assistant, instruction 2")]
    key = drill.answer_key
    assert key is not None
    assert key.fault.origin_step == "s02"  # step 9 is m008, the Assistant's count, in the step its instruction opened
    assert list(key.evidence) == ["m008"]
    assert [d.event for d in key.damage.entries] == ["m009"]  # the ledger that accepts it; the status lines are logs
    assert {e.id: e.kind for e in drill.trace}["m010"] == "log"
    assert run_checks(drill).passed


def test_a_run_without_a_record_is_refused_naming_the_file(tmp_path: Path) -> None:
    report = _import(AGENTRX / "tau-retail" / "failed" / "7.json", AGENTRX / "magentic-one" / "ground_truth.json",
                     tmp_path)
    [failed] = report.failed
    assert failed.error == ("ground_truth.json has no record of run '7' (its `trajectory_id`s name the runs it "
                            "annotates)")


@pytest.mark.skipif(CORPUS is None, reason="the shared AgentRx corpus is not on this machine")
@pytest.mark.parametrize(("subset", "runs"), [("tau-retail", "tau-retail/failed"), ("magentic-one", "magentic-one")])
def test_the_shared_corpus_imports_keyed_or_refused_with_a_reason(tmp_path: Path, subset: str, runs: str) -> None:
    assert CORPUS is not None
    report = _import(CORPUS / runs, CORPUS / subset / "ground_truth.json", tmp_path)
    assert report.results
    for r in report.failed:  # every refusal is an annotation that cannot give a fair drill, said as such
        assert "the failure is in the user's request" in (r.error or ""), r.error
    for r in report.imported:
        drill = load_drill(r.output)
        assert drill.answer_key is not None
        assert run_checks(drill).passed, r.output


def test_trail_style_span_annotations_key_an_otel_trace(tmp_path: Path) -> None:
    """A TRAIL-style annotation file (span-level errors of an OpenTelemetry trace; tests/fixtures/trail, written in
    TRAIL's shape for the recorded Pydantic AI run) keys `import otel --ground-truth`: the HIGH error's span."""
    from warroom.importers.otel import import_otel

    report = import_otel([TESTS / "fixtures" / "frameworks" / "pydantic-ai.jsonl"], tmp_path,
                         TraceOptions(ground_truth=TESTS / "fixtures" / "trail" / "pydantic-ai.trail.json"))
    [result] = report.imported
    drill = load_drill(result.output)
    key = drill.answer_key
    assert key is not None
    calls = {e.id: e for e in drill.trace}
    [evidence] = key.evidence
    assert calls[evidence].kind == "tool_result" and calls[evidence].call == "call_lc"  # list_charges' result
    assert key.fault.kind.value == "timeout_as_empty" and key.fault.origin_step == "p01"
    assert "span ee848aa66e381a40 (Service Errors, LOW)" in key.debrief  # the other error, in the debrief
    assert run_checks(drill).passed
    other = import_otel([TESTS / "fixtures" / "otel" / "current.json"], tmp_path / "x",
                        TraceOptions(ground_truth=TESTS / "fixtures" / "trail" / "pydantic-ai.trail.json"))
    [failed] = other.failed
    assert "annotates no error of this trace" in (failed.error or "")


#: Categories, with the user's and an unknown one: a held-out annotation may name any of them.
_CATEGORIES = ["Misinterpretation of Tool Output", "Invention of new information", "Invalid Invocation",
               "Guardrails Triggered", "System Failure", "Intent Plan Misalignment", "A category nobody listed",
               "Underspecified User Intent"]


def _runs() -> list[tuple[Path, str, int]]:
    """(run file, its trajectory id, its number of messages) of every fixture run."""
    import json

    out = []
    for path in sorted(AGENTRX.rglob("*.json")):
        if path.name == "ground_truth.json":
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        runs = data if isinstance(data, list) else [data]
        for run in runs:
            traj = run["traj"] if isinstance(run, dict) and "traj" in run else run
            rid = str(run["task_id"]) if isinstance(run, dict) and "task_id" in run else path.stem
            out.append((path, rid, len(traj)))
    return out


def test_an_annotation_at_any_step_is_keyed_and_checked_or_refused_with_a_reason(tmp_path: Path) -> None:
    """Unseen annotations of the same runs (every step, from 1 to one past the last message, with every category):
    each run gives a keyed drill that passes `warroom check`, or a one-line reason; never an exception, never a
    drill that fails check (nothing in the importer is special to the shipped annotations)."""
    import json

    keyed = refused = 0
    for path, rid, n in _runs():
        for step in range(1, n + 2):
            truth = tmp_path / "truth.json"
            truth.write_text(json.dumps([{"trajectory_id": rid, "failures": [{
                "failure_id": 1, "step_number": step, "step_reason": "The agent went wrong here. Then more.",
                "failure_category": _CATEGORIES[step % len(_CATEGORIES)], "category_reason": "because",
                "failed_agent": "assistant"}], "root_cause": {"failure_id": 1}}]), encoding="utf-8")
            report = _import(path, truth, tmp_path / f"out-{rid}-{step}")
            for r in report.failed:
                assert r.error and "\n" not in r.error and "Traceback" not in r.error, r.error
                refused += 1
            for r in report.imported:
                drill = load_drill(r.output)
                assert drill.answer_key is not None and run_checks(drill).passed, (path, step)
                keyed += 1
    assert keyed > 0 and refused > 0


def test_a_keyed_drill_s_damage_notes_give_the_cost_as_every_amount_is_shown(tmp_path: Path) -> None:
    # was `est. USD 0.0000` at a cheap model's price (four decimals, a second format of money beside core.text.usd,
    # which Who&When's notes use): an estimated cost shown as nothing
    report = import_chats([AGENTRX / "tau-retail" / "failed"], tmp_path, TraceOptions(
        ground_truth=AGENTRX / "tau-retail" / "ground_truth.json", price=Price(0.02, 0.05)))
    drill = load_drill(report.imported[0].output)
    [entry] = drill.answer_key.damage.entries
    usage = drill.event(entry.event).usage  # 145 in, 25 out: 145 x 0.02 + 25 x 0.05 = 4.15 millionths of a dollar
    assert (usage.input_tokens, usage.output_tokens) == (145, 25)
    assert entry.note == "assistant's turn after the fault (model call, est. $0.00000415)"
