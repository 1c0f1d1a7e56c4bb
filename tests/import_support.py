"""Shared helpers of the Who&When importer tests (tests/unit/test_import_*.py, tests/cli/test_import_cli.py).

Small records written for these tests live in tests/fixtures/who_and_when/ (good/ by kind, bad/ one per problem);
the shared corpus is used when it is present (:func:`corpus_dir`). :func:`refund_chat` writes the smallest chat
`warroom import chat` reads (one tool call, no planner), for the tests of what a drill without a planner costs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from locations import REPO, WHO_AND_WHEN

from warroom.core.model import Drill
from warroom.core.play import Replay
from warroom.importers import who_and_when as ww

FIXTURES = WHO_AND_WHEN


def refund_chat(path: Path) -> Path:
    """Write at ``path`` an OpenAI-shaped chat of one tool call (look up an order, then refund it) and no system
    prompt or planner: what `warroom import chat` reads as a drill whose re-plan has no tokens to charge."""
    path.write_text(json.dumps({"model": "gpt-4o", "messages": [
        {"role": "user", "content": "Refund order 42"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "lookup_order", "arguments": "{\"id\": 42}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "{\"status\": \"paid\"}"},
        {"role": "assistant", "content": "Refunded order 42."},
    ]}))  # fmt: skip
    return path
GOOD = FIXTURES / "good"
BAD = FIXTURES / "bad"


def corpus_dir(name: str = "who-and-when") -> Path | None:
    """The shared corpus ``name`` (``who-and-when``, ``agentrx``) when this machine has it (``shared/corpora``
    beside the checkout), else None."""
    d = REPO.parent / "shared" / "corpora" / name
    return d if d.is_dir() else None


def load(path: Path) -> Drill:
    """Load a drill file with the project's loader (issue 2), or the documented fallback while it is absent."""
    try:
        from warroom.core.load import load_drill
    except ImportError:
        return Drill.model_validate(yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
    return load_drill(path)


def convert(path: Path, options: ww.ImportOptions | None = None) -> tuple[dict, Drill]:
    record = ww.parse_record(ww.read_record(path), path.stem, file=f"{path.parent.name}/{path.name}")
    return ww.convert_record(record, options)


def headline_words(text: str) -> str:
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
        from warroom.core.author import run_checks
    except ImportError:
        return
    report = run_checks(drill)
    assert not report.problems, report


def assert_no_answer_before_the_debrief(drill: Drill, record: dict) -> None:
    """What a trainee sees before the debrief (public tags, plan-step titles and objectives, shown from 00:00) does
    not name the annotated agent as a tag, nor show any agent or instruction text later than the planner's plan."""
    assert record["mistake_agent"] not in drill.tags
    assert record["mistake_agent"] not in drill.public_tags
    known = {"magentic-one": 2, "captain-agent": 1}[drill.public_tags[2]]  # the request and initial plan / the manager
    for step in drill.plan[1:]:
        assert re.fullmatch(r".+, (instruction|turn) \d+", step.title), step.title
    for m in record["history"][known:]:
        first = next((ln.strip() for ln in m["content"].splitlines() if len(ln.strip()) >= 40), None)
        if first is None or first in record["question"] or first in record["history"][0]["content"]:
            continue  # a line that repeats the task or the plan was known from the start
        for step in drill.plan:
            assert first not in step.title and first not in step.objective, (drill.id, step.id)
