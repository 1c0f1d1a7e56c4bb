"""`warroom annotate --reading-time S` (warroom.core.author._retime): on save, the events after the earliest evidence
move later so that a fast real trace leaves time to read it; only their `t` values change, in place."""

from __future__ import annotations

from pathlib import Path

from trace_import_support import FIXTURES, marked_up

from warroom.core.author import open_for_annotation, run_checks, write_draft
from warroom.core.author._retime import retime_text
from warroom.importers.kit import import_files, recognise

KEY_AFTER = """answer_key:
  fault: {origin_step: p01, kind: timeout_as_empty, summary: list_charges timed out and said no duplicates.}
  evidence: [e0004]
  cascade: []
  damage: {unit: USD refunded wrongly, entries: [{event: e0011, amount: 129.9}]}
  deadline: {event: e0004, after: 8}
  debrief: The empty duplicates list came from a timeout.
"""


def _imported(tmp_path: Path) -> Path:
    path = FIXTURES / "frameworks" / "langgraph-openinference.jsonl"
    importer = recognise(path)
    assert importer is not None
    [result] = import_files(importer, [path], tmp_path).imported
    assert result.output is not None
    return result.output


def test_retime_moves_only_the_later_times_and_says_so(tmp_path: Path) -> None:
    path = _imported(tmp_path)
    text = path.read_text(encoding="utf-8")
    # as recorded, the ticket is closed 6 ms after the evidence: no deadline fits
    assert not run_checks(marked_up(path, KEY_AFTER)).passed
    retimed, by = retime_text(text, "e0004", 10.0)
    assert by > 9.9
    changed = [(a, b) for a, b in zip(text.splitlines(), retimed.splitlines()[1:], strict=False) if a != b]
    assert retimed.count("\n") == text.count("\n") + 1  # one comment line added
    assert "# Re-timed for reading by `warroom annotate --reading-time 10`: the events after e0004 moved" in retimed
    path.write_text(retimed, encoding="utf-8")
    drill = marked_up(path, KEY_AFTER)
    assert run_checks(drill).passed, run_checks(drill).problems
    times = {e.id: e.t for e in drill.trace}
    # the rest of e0004's parallel batch (e0002's calls and results) stays with it; the reading time follows it
    assert times["e0006"] - times["e0004"] < 0.01 and times["e0009"] - times["e0008"] >= 10.0 - 1e-9
    assert retime_text(retimed, "e0004", 10.0) == (retimed, 0.0)  # saving again moves nothing
    assert changed  # (the lines that differ are t values only: checked by the loads above)


def test_write_draft_with_reading_time_retimes_before_writing_the_key(tmp_path: Path) -> None:
    path = _imported(tmp_path)
    opened = open_for_annotation(path)
    draft = opened.draft
    draft.evidence = ["e0004"]
    write_draft(path, draft, opened.event_order, reading_time=10.0)
    text = path.read_text(encoding="utf-8")
    assert "moved" in text and "evidence:\n  - e0004" in text


def test_the_evidence_batch_stays_together_when_retimed() -> None:
    """Issue 35's walk-through: the events of one parallel batch keep their gaps; the reading time follows the
    batch's last event."""
    text = """trace:
- {id: c1, t: 6.8, kind: tool_call, tool: a, batch: m2}
- {id: c2, t: 8.8, kind: tool_call, tool: b, batch: m2}
- {id: r2, t: 10.8, kind: tool_result, call: c2, output: x}
- {id: r1, t: 12.8, kind: tool_result, call: c1, output: y}
- {id: msg, t: 14.8, kind: executor_message, content: z}
"""
    out, by = retime_text(text, "r2", 10.0)
    assert by == 8.0
    assert "{id: r1, t: 12.8," in out and "{id: msg, t: 22.8," in out


def test_results_released_with_the_evidence_stay_with_it_as_the_importers_keep_them() -> None:
    """One rule for `warroom annotate --reading-time` and the keyed importers (core.author's stretch_after): a result
    released at the same time as the evidence is read with it and not moved; the next event comes S after them."""
    text = """trace:
- {id: r1, t: 4.0, kind: tool_result, output: x}
- {id: r2, t: 4.0, kind: tool_result, output: y}
- {id: msg, t: 5.0, kind: executor_message, content: z}
"""
    out, by = retime_text(text, "r1", 10.0)
    assert by == 9.0
    assert "{id: r2, t: 4.0," in out and "{id: msg, t: 14," in out
