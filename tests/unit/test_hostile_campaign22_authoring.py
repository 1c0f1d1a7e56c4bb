"""The twenty-second hostile campaign, on the author's tools (validate on drills written by hand, the command line's
folder options) and the text every screen shows (bidirectional marks, invisible characters in names): each case it
found, with the right behaviour."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from warroom.cli import main


def _basic() -> dict:
    """`warroom new`'s basic skeleton (id ``basic``) as data."""
    from warroom.core.author import skeleton_text

    return yaml.safe_load(skeleton_text("basic"))


def _validate(tmp_path: Path, data: dict) -> tuple[int, str, str]:
    path = tmp_path / "basic.yaml"
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    return result.exit_code, result.output, text


@pytest.mark.parametrize("form", ["flow", "block"])
def test_a_comparison_in_accepted_evidence_is_told_what_to_write(tmp_path: Path, form: str) -> None:
    """`accepted_evidence: [{all_of: [e03, e04]}]` was refused twice over: "missing the required key `event`" and
    "unknown key `all_of`", neither saying that a comparison is a form of `evidence` only. It is one problem now, at
    `all_of`, with the two ways out: the events listed one by one, or the comparison moved to `evidence`."""
    data = _basic()
    item: dict = {"all_of": ["e03", "e04"]}
    if form == "block":
        item["note"] = "e04 contradicts e03"
    data["answer_key"]["accepted_evidence"] = [item]
    code, output, text = _validate(tmp_path, data)
    assert code == 1
    problems = [line for line in output.splitlines() if line.startswith(str(tmp_path)) and "not checked" not in line]
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "all_of" in t)
    assert problems == [
        f"{tmp_path / 'basic.yaml'}:{line}:{text.splitlines()[line - 1].index('all_of') + 1}: item of "
        "`accepted_evidence` #1: `all_of` (a comparison) is a form of `evidence`, not of `accepted_evidence`, whose "
        "items are single events: to accept a citation of any of these events, list them (`accepted_evidence: "
        "[e03, e04]`); to count them only together, move the comparison to `evidence`"
    ], output
    assert "missing the required key" not in output and "unknown key" not in output


def test_an_absence_in_accepted_evidence_is_told_to_go_to_evidence(tmp_path: Path) -> None:
    """`{event: e03, absent: ...}` in `accepted_evidence` was "unknown key `absent`"; it is told that an absence is a
    form of `evidence`."""
    data = _basic()
    data["answer_key"]["accepted_evidence"] = [{"event": "e03", "absent": "no retry of the query"}]
    code, output, _ = _validate(tmp_path, data)
    assert code == 1
    assert ("item of `accepted_evidence` #1: `absent` (an absence at a checkpoint) is a form of `evidence`, not of "
            "`accepted_evidence`, whose items are an event or a field of one (`event` with a `path`): move the "
            "absence to `evidence`") in output, output
    assert "unknown key" not in output


#: The evidence e03's output, as JSON text.
EVIDENCE_JSON = '{"ok": false, "error": "permission denied for schema analytics", "rows": []}'


def _with_repeat(data: dict, output: str, evidence: object = EVIDENCE_JSON) -> dict:
    """``data`` with its evidence e03's output ``evidence``, and a retry of e02/e03 (e03a, e03b) whose result is
    ``output`` as written, listed as a distractor."""
    trace = data["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e03")
    trace[at]["output"] = evidence
    call = {**copy.deepcopy(trace[at - 1]), "id": "e03a", "t": 11}
    result = {**copy.deepcopy(trace[at]), "id": "e03b", "t": 12, "call": "e03a", "output": output}
    trace[at + 1 : at + 1] = [call, result]
    data["distractors"].append({"event": "e03b", "why_harmless": "A retry of the query; harmless."})
    return data


@pytest.mark.parametrize(
    ("written", "evidence"),
    [
        ('{"rows": [], "error": "permission denied for schema analytics", "ok": false}', EVIDENCE_JSON),  # reordered
        ('{\n  "ok": false,\n  "error": "permission denied for schema analytics",\n  "rows": []\n}', EVIDENCE_JSON),
        ('{"rows": [], "error": "permission denied for schema analytics", "ok": false}', json.loads(EVIDENCE_JSON)),
    ],
    ids=["reordered", "indented", "yaml-evidence"],
)
def test_a_distractor_repeating_the_evidences_json_text_in_another_order_is_refused(
    tmp_path: Path, written: str, evidence: object
) -> None:
    """The "distractor repeats the evidence" rule compared a tool result's JSON text as written: the evidence's
    ``{"ok": false, "error": ..., "rows": []}`` repeated by a retry as ``{"rows": [], "error": ..., "ok": false}``
    (or indented, or the evidence's output written as YAML) passed, though it says the same to a trainee. JSON
    text is compared by its value."""
    data = _with_repeat(_basic(), written, evidence)
    code, output, _ = _validate(tmp_path, data)
    assert code == 1, output
    assert "distractor event `e03b` says what evidence event `e03` says (the same tool_result" in output, output


def test_a_distractor_whose_json_text_says_another_thing_still_validates(tmp_path: Path) -> None:
    """The other side: a retry whose JSON result differs by a value is another answer, not the evidence."""
    data = _with_repeat(_basic(), EVIDENCE_JSON)
    data["trace"][next(i for i, e in enumerate(data["trace"]) if e["id"] == "e03b")]["output"] = (
        '{"rows": [], "error": "statement timeout", "ok": false}'
    )
    code, output, _ = _validate(tmp_path, data)
    assert "says what evidence event" not in output
    assert code == 0, output


#: What --drills adds to "NAME is a file, not a folder: --drills names a folder" (``{dir}``: the folder holding it).
DRILLS_TOLD = " of drill files: give the folder that holds it (--drills {dir})"


@pytest.mark.parametrize(
    ("args", "option", "told"),
    [
        (["--drills", "{file}", "scores"], "--drills", DRILLS_TOLD),
        (["store", "sync", "--drills", "{file}"], "--drills", DRILLS_TOLD),
        (["--data-dir", "{file}", "scores"], "--data-dir", ""),
        (["new", "x", "--out", "{file}"], "--out", ""),
    ],
)
def test_a_file_given_where_a_folder_is_wanted_is_told_what_to_give(
    tmp_path: Path, args: list[str], option: str, told: str
) -> None:
    """`warroom --drills drill.yaml` gave click's "Directory 'drill.yaml' is a file"; every folder option now says
    the name is a file, that the option names a folder, and (--drills) which folder to give."""
    file = tmp_path / "drill.yaml"
    file.write_text("id: x\n", encoding="utf-8")
    result = CliRunner().invoke(main, [a.format(file=file) for a in args])
    assert result.exit_code == 2
    said = f"{file} is a file, not a folder: {option} names a folder" + told.format(dir=tmp_path)
    assert f"Invalid value for '{option}': {said}\n" in result.output, result.output
    assert "Directory" not in result.output


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u061c"])
def test_bidirectional_marks_are_escaped_like_the_other_bidirectional_controls(mark: str) -> None:
    """The bidirectional marks (U+200E LRM, U+200F RLM, U+061C ALM) reached the terminal raw from drill text,
    where U+202E and the isolates were escaped: a mark reorders the neutral characters around it, and shows
    nothing. They are escaped everywhere the others are: screens and messages, JSON output, fields, names and notes."""
    from warroom.core.settings import trainee_name_problem
    from warroom.core.text import clean, clean_name, control_chars, json_text
    from warroom.store.results._notes import note_problem
    from warroom.tui.widgets._textinput import visible_controls

    code = f"\\u{ord(mark):04x}"
    assert clean(f"refund 1{mark} - 2") == f"refund 1{code} - 2"
    assert clean_name(f"a{mark}b") == f"a{code}b"
    assert json_text(f"a{mark}") == f'"a{code}"' and json.loads(json_text(f"a{mark}")) == f"a{mark}"
    assert control_chars(f"ann{mark}") == [code]
    assert visible_controls(f"a{mark}b") == "a\ufffdb"
    assert trainee_name_problem(f"ann{mark}") == (
        f"contains control characters ({code}): a trainee name is stored with every session and printed by "
        "`warroom scores`; use letters, digits, spaces and punctuation"
    )
    assert "bidirectional control character" in (note_problem(f"seen {mark}ok") or "")


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("ann\u200b", "ann\\u200b"),  # zero-width space
        ("a\u2060nn", "a\\u2060nn"),  # word joiner
        ("ann\u00a0", "ann\\u00a0"),  # no-break space
        ("\u3164ann", "\\u3164ann"),  # Hangul filler
        ("ann\U000e0041", "ann\\U000e0041"),  # a tag character
        ("ann\n", "ann\\x0a"),
        ("Zoë Ng", "Zoë Ng"),
    ],
)
def test_a_name_is_shown_with_its_invisible_characters_escaped(name: str, shown: str) -> None:
    """A trainee name holding a zero-width space (written into the store by SQL, where no check runs) looked like
    the name without it on every screen. :func:`visible_name` shows each invisible character escaped."""
    from warroom.core.text import visible_name

    assert visible_name(name) == shown


def test_an_id_with_a_zero_width_space_is_shown_by_warroom_new(tmp_path: Path) -> None:
    """`warroom new` refused an id holding a zero-width space with "Invalid value for ID 'a​'", the character shown
    as nothing: the author saw a valid id refused. It is shown escaped."""
    result = CliRunner().invoke(main, ["new", "a\u200b", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "Invalid value for ID 'a\\u200b': use letters, digits" in result.output, result.output
    assert "\u200b" not in result.output


def test_a_zero_width_space_in_a_stored_trainee_name_is_shown_by_warroom_scores(tmp_path: Path) -> None:
    """A trainee name holding a zero-width space (written by SQL) was printed by `warroom scores` as the name without
    it, beside the real one; and `--trainee` given one said "No sessions match --trainee 'ann​'". Both show it
    escaped."""
    from scores_support import run, run_sub
    from store_support import add_session

    from warroom.store.results import ResultsStore

    data = tmp_path / "data"
    with ResultsStore(data) as store:
        add_session(store, "s-one", trainee="ann", total=80)
        add_session(store, "s-two", trainee="ann\u200b", total=90)
        add_session(store, "s-three", trainee="bob", drill_id="duplicate-charge-refunds\u2060", total=70)
    listed = run(data, "--format", "table").output
    assert "ann\\u200b" in listed and "refunds\\u2060" in listed, listed
    assert "\u200b" not in listed and "\u2060" not in listed
    summary = run_sub(data, "summary", "--mode", "all").output  # its table, its warnings and its bars
    assert summary.count("ann\\u200b") >= 3 and "\u200b" not in summary, summary
    missing = run(data, "--trainee", "bob\u200b").output
    assert "No sessions match --trainee 'bob\\u200b': no session of trainee 'bob\\u200b' is stored" in missing, missing


@pytest.mark.parametrize(
    ("events", "told"), [(["e03"], "write `e03` as the item"), ([], "write the event's id as the item")]
)
def test_a_comparison_of_one_event_is_told_to_name_the_event_alone(tmp_path: Path, events: list, told: str) -> None:
    """`evidence: [{all_of: [e03]}]` was "needs at least 2 items", leaving the author to guess that one event is
    written as its id alone. The message says so, with the id."""
    data = _basic()
    data["answer_key"]["evidence"] = [{"all_of": events}]
    code, output, _ = _validate(tmp_path, data)
    assert code == 1
    assert ("`all_of` of evidence item #1 needs at least 2 items: a comparison is of two or more events; one event is "
            f"evidence on its own ({told})") in output, output


def test_a_damage_pattern_with_a_zero_width_space_is_shown_by_warroom_project(tmp_path: Path) -> None:
    """`warroom project --damage 'route53​*=5'` (a zero-width space pasted in) said "no call after it matches --damage
    route53​*", the pattern shown as if it matched the route53 calls it then listed. The pattern is shown escaped."""
    drill = Path(__file__).parent.parent.parent / "drills" / "api-dns-cutover.yaml"
    args = ["project", str(drill), "--template", "stale-data", "--at", "e06", "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, [*args, "--damage", "route53\u200b*=5"])
    assert result.exit_code != 0
    assert "no call after it matches --damage route53\\u200b* (the tools called after it: route53.get_change" in (
        result.output), result.output


def test_a_fixed_set_value_with_a_zero_width_space_is_shown_escaped_and_named(tmp_path: Path) -> None:
    """`origin: "plan\u200b"` said "unknown value `plan` ...; did you mean `plan`?": the zero-width space that made
    it unknown was shown as nothing. The value is shown escaped, with the character named, as an id is."""
    data = _basic()
    data["answer_key"]["fault"]["origin"] = "step\u200b"
    code, output, _ = _validate(tmp_path, data)
    assert code == 1
    assert ("unknown value `step\\u200b` (zero width space U+200B) for `answer_key.fault.origin`; did you mean "
            "`step`?") in output, output
