"""The eighteenth hostile campaign, on the author's tools (drills written by hand, validate, check, migrate, the
variants, drill sets): each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest


def _full_drill_with(tmp_path: Path, extra: str):
    from warroom.core.author import example_text
    from warroom.core.load import load_drill

    path = tmp_path / "full.yaml"
    path.write_text(example_text("full", "full", "drill.schema.json") + extra, encoding="utf-8")
    return load_drill(path)


def test_a_variants_name_is_replaced_in_what_the_model_was_shown_the_probes_and_the_evidence_notes(
        tmp_path: Path) -> None:
    """A name a variant replaces in a tool result's output stayed as written in the same result's `shown` (what
    the inspector shows the model saw), in a command's stderr, in a probe's answer and in an evidence item's note
    and absence: a variant showed `next_cursor: c7` beside a probe answering `next_cursor c2`."""
    from warroom.core.variants import apply_variant

    drill = _full_drill_with(tmp_path, (
        "variants:\n"
        "  names:\n"
        "    - {text: c2, choices: [c7]}\n"
        "    - {text: invoice_id, choices: [inv_ref]}\n"
        "  amounts:\n"
        "    - {text: '40', min: 41, max: 99}\n"))
    variant = next(v for v in (apply_variant(drill, seed) for seed in range(100))
                   if v.trace[8].output["next_cursor"] == "c7" and "inv_ref" in str(v.trace[11]))
    events = {e.id: e for e in variant.trace}
    n = events["e06"].output["invoices"]
    assert events["e06"].output == {"invoices": n, "returned": 20, "next_cursor": "c7"}
    assert events["e06"].shown == {"invoices": n, "returned": 20}
    assert events["e09"].stderr == "KeyError: inv_ref"
    probe = next(p for p in variant.probes if p.id == "p1")
    assert probe.reveals == f"Fetched 20 of {n} invoices; the response had next_cursor c7, which I did not follow."
    assert variant.answer_key is not None
    notes = [item.note for item in variant.answer_key.evidence if not isinstance(item, str)]
    assert f"e07 says all fetched; e06 returned 20 of {n}." in notes
    absent = [item.absent for item in variant.answer_key.evidence if not isinstance(item, str) and item.absent]
    assert absent == ["no call for the page after next_cursor c7 before s1's report"]
    accepted = [item.note for item in variant.answer_key.accepted_evidence if not isinstance(item, str)]
    assert accepted == [f"20 paid where {n} invoices were open."]


def test_check_help_states_the_distractor_rule_it_enforces() -> None:
    """`warroom check --help` said a drill fails when a distractor has the kind and plan step of an evidence event,
    the rule issue 34 dropped (docs/authoring.md, rule 5): a drill with such a distractor passes, so the help told
    an author to move a realistic distractor for nothing; it states the rule check keeps."""
    from click.testing import CliRunner

    from warroom.cli import main

    result = CliRunner().invoke(main, ["check", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "has the kind and plan step of an evidence event" not in text
    assert "citing a distractor alone does not contain" in text


def test_a_drill_whose_variants_shuffle_its_distractors_opens_for_marking_up(tmp_path: Path) -> None:
    """`warroom annotate` of a drill whose variants shuffle its distractors (the bundled q1-access-review) was
    refused: the drill was checked without its answer key and distractors but with its variants, so each shuffle
    group's events were "not a distractor: list it in distractors" though they are listed there. The variants
    section is checked with the key once saved, as the twin is."""
    from locations import REPO

    from warroom.core.author import findings, open_for_annotation, write_draft

    path = tmp_path / "q1-access-review.yaml"
    path.write_bytes((REPO / "drills" / "q1-access-review.yaml").read_bytes())
    opened = open_for_annotation(path)
    assert {"e06", "e07"} <= set(opened.draft.distractors)
    before = path.read_bytes()
    write_draft(path, opened.draft, opened.event_order, opened.sha256)
    assert path.read_bytes() == before
    assert findings(path).problems == []


def test_a_drill_with_variants_and_a_problem_outside_its_key_names_only_that_problem(tmp_path: Path) -> None:
    """Refused for a real problem (a plan step named nowhere), the drill's shuffle groups were listed too, as
    though their events were no distractors."""
    from locations import REPO

    from warroom.core.author import AnnotateError, open_for_annotation

    text = (REPO / "drills" / "q1-access-review.yaml").read_text(encoding="utf-8")
    path = tmp_path / "q1-access-review.yaml"
    path.write_text(text + "\nunknown_key: 1\n", encoding="utf-8")
    with pytest.raises(AnnotateError) as caught:
        open_for_annotation(path)
    assert "is not a distractor" not in str(caught.value)
    assert "unknown_key" in str(caught.value)


def test_reading_time_comes_after_a_comparison_is_whole_not_after_its_first_member(tmp_path: Path) -> None:
    """`warroom annotate --reading-time S` moved the events after the first member of a comparison (`all_of: [e01,
    e05]`: the plan at 0 s) rather than after the event that makes it visible (the handoff e05 at 7 s, when both
    are out): the reading time went between the plan and the first step, and the handoff was still followed a
    second later."""
    from warroom.core.author import example_text, open_for_annotation, write_draft
    from warroom.core.load import load_drill

    path = tmp_path / "loop.yaml"
    path.write_text(example_text("loop", "loop", "drill.schema.json"), encoding="utf-8")
    before = {e.id: e.t for e in load_drill(path).trace}
    opened = open_for_annotation(path)
    write_draft(path, opened.draft, opened.event_order, opened.sha256, reading_time=10)
    after = {e.id: e.t for e in load_drill(path).trace}
    assert [after[e] for e in ("e01", "e02", "e05")] == [before[e] for e in ("e01", "e02", "e05")]
    assert after["e06"] == after["e05"] + 10
    assert "the events after e05 moved 9 s later" in path.read_text(encoding="utf-8")


def test_a_twin_that_removes_a_distractor_it_keeps_says_so(tmp_path: Path) -> None:
    """A twin removing an event that is one of the fault drill's distractors (which the twin keeps) was reported as
    "distractor event `e09` is not a trace event", though e09 is one in the file, naming neither the removal nor
    what to do: the message says both and the line of the `remove`."""
    from warroom.core.author import example_text
    from warroom.core.load import DrillLoadError, load_drill_text

    text = example_text("full", "full", "drill.schema.json").replace("  remove: [e16]", "  remove: [e16, e09]")
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    [problem] = caught.value.problems
    remove_line = next(i for i, line in enumerate(text.splitlines(), 1) if line == "  remove: [e16, e09]")
    assert problem.message == (
        "in the twin (the healthy run): distractor event `e09` is not a trace event: the twin removes it, and keeps "
        "the fault drill's distractors (it has no `distractors` of its own), so the healthy run must still have it: "
        "drop it from `twin.remove` (or `replace` it), or give the twin its own `distractors` "
        f"(see line {remove_line})")


def test_reading_time_moves_the_twins_events_and_a_probes_answer_by_time_with_the_trace(tmp_path: Path) -> None:
    """`warroom annotate --reading-time 30` moved the trace's events after the evidence but not the times of the
    twin's added and replaced events nor a probe's earlier answer `until` (seconds): the healthy run's "23 payments
    queued" log (47 s) then came before the payments it reports (moved to 69 s), and the probe answered that the
    matcher had finished before it first ran."""
    from warroom.core.author import example_text, open_for_annotation, write_draft
    from warroom.core.load import load_drill
    from warroom.core.model import twin_of

    text = example_text("full", "full", "drill.schema.json")
    text = text.replace("{until_event: e10, reveals:", "{until: 12, reveals:")
    text = text.replace("    e14: {arguments: {count: 23}}", "    e14: {t: 42, arguments: {count: 23}}")
    path = tmp_path / "full.yaml"
    path.write_text(text, encoding="utf-8")
    opened = open_for_annotation(path)
    write_draft(path, opened.draft, opened.event_order, opened.sha256, reading_time=30)
    drill = load_drill(path)
    by = drill.event("e07").t - 8
    assert by == 28
    twin = twin_of(drill)
    assert twin.event("h1").t == 47 + by and twin.event("e14").t == 42 + by
    assert [e.id for e in twin.trace][-3:] == ["e14", "e15", "h1"]
    probe = next(p for p in drill.probes if p.id == "p2")
    assert probe.answers[0].until == 12 + by


def test_a_projection_moves_a_probes_answer_by_time_with_the_events_it_stretches(tmp_path: Path) -> None:
    """`warroom project` released the events from the first damage call on later (the reading window) but copied a
    probe's earlier answer `until` (seconds) as written: an answer meant for before the payment ended 9 s before
    the payment was released."""
    import yaml
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author import example_text
    from warroom.core.load import load_drill

    data = yaml.safe_load(example_text("full", "healthy", "drill.schema.json"))
    times = {"e07": 6.2, "e08": 6.3, "e09": 6.4, "e10": 6.5, "e11": 6.7, "e12": 6.8, "e13": 6.9, "e14": 7,
             "e15": 7.1, "e16": 7.2}
    for event in data["trace"]:
        event["t"] = times.get(event["id"], event["t"])
        event.pop("repeat", None)
    data["probes"][1]["answers"] = [{"until": 7.05, "reveals": "The payment is being sent."}]
    for key in ("twin", "answer_key"):
        del data[key]
    data["all_clear"] = {"debrief": "Nothing was wrong."}
    data["distractors"] = [d for d in data["distractors"] if d["event"] != "e09"]
    source = tmp_path / "healthy.yaml"
    source.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["project", str(source), "--template", "stale-data", "--at", "e05",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    [written] = out.glob("*.yaml")
    drill = load_drill(written)
    by = drill.event("e15").t - 7.1
    assert by > 0 and drill.event("e14").t - 7 == pytest.approx(by)
    [answer] = next(p for p in drill.probes if p.id == "p2").answers
    assert answer.until == pytest.approx(7.05 + by)


def test_a_phrasing_without_the_evidences_field_is_refused_by_validate(tmp_path: Path) -> None:
    """A phrasing of the evidence event whose output lacks the field the answer key points at (`next_cursor`)
    validated, and the variants drawing it were no drill (`warroom check --variants` failed them, a session of
    such a seed could not start): validate refuses it at the choice."""
    from warroom.core.author import example_text
    from warroom.core.load import DrillLoadError, load_drill_text

    text = example_text("full", "full", "drill.schema.json") + (
        "variants:\n"
        "  phrasings:\n"
        "    - event: e06\n"
        "      choices:\n"
        "        - output: {invoices: 40, returned: 20}\n")
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    [problem] = caught.value.problems
    assert text.splitlines()[problem.line - 1] == "        - output: {invoices: 40, returned: 20}"
    assert problem.message.startswith(
        "with this phrasing of e06 the drill breaks a rule: the field path `next_cursor` leads nowhere in the output "
        "of `e06`")


def test_a_name_whose_choice_breaks_the_drill_is_refused_by_validate(tmp_path: Path) -> None:
    """A name found as a key inside a result written as JSON text (`next_cursor` in '{"next_cursor": "c2"}', the
    field the answer key points at) validated, and each variant drawing its choice was no drill: validate plays
    each choice and refuses one that breaks a rule, at the choice."""
    from warroom.core.author import example_text
    from warroom.core.load import DrillLoadError, load_drill_text

    text = example_text("full", "full", "drill.schema.json")
    written = "    output: {invoices: 40, returned: 20, next_cursor: c2}\n    shown: {invoices: 40, returned: 20}\n"
    assert written in text
    text = text.replace(written, "    output: '{\"invoices\": 40, \"returned\": 20, \"next_cursor\": \"c2\"}'\n")
    text += "variants:\n  names:\n    - text: next_cursor\n      choices: [cursor_next]\n"
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "full.yaml")
    [problem] = caught.value.problems
    assert text.splitlines()[problem.line - 1] == "      choices: [cursor_next]"
    assert problem.message.startswith(
        "with the name `next_cursor` written `cursor_next` the drill breaks a rule: the field path `next_cursor` "
        "leads nowhere in the output of `e06`")
