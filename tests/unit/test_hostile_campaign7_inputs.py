"""A seventh fresh hostile campaign on issue 30's promises, on the reading and authoring inputs (the importers fed
recorded fixtures mutated structurally, drill sets that name sets, symlinks and odd paths, `annotate` round trips,
`migrate` then `validate`, and the commands the docs show run as written): each case a hostile author or a faulty
world found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main

FIXTURES = TESTS / "fixtures"
DRILLS = TESTS.parent / "drills"


def test_a_set_of_too_many_drills_is_one_short_problem_not_its_whole_list_echoed(tmp_path: Path):
    """A set of 20,000 drill names was refused in one problem line of 189,000 characters: the whole list, as the
    value it got. The value a set's problem quotes is cut to 80 characters, as a drill's are."""
    (tmp_path / "a.yaml").write_text((DRILLS / "duplicate-charge-refunds.yaml").read_text())
    names = "".join(f"  - d{i}\n" for i in range(20000))
    (tmp_path / "s.set.yaml").write_text("set: w1\ntitle: W1\ndrills:\n" + names)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "s.set.yaml")])
    assert result.exit_code == 1
    problem, summary = result.output.splitlines()
    assert problem.startswith(f"{tmp_path / 's.set.yaml'}:3:1: `drills`: list should have at most 1000 items")
    assert problem.endswith(", got ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10', 'd11', 'd...")
    assert summary == "1 drill set checked: 0 valid, 1 invalid (1 problem)"


def test_a_set_due_date_of_a_long_text_is_quoted_cut_short(tmp_path: Path):
    (tmp_path / "a.yaml").write_text((DRILLS / "duplicate-charge-refunds.yaml").read_text())
    (tmp_path / "s.set.yaml").write_text(f"set: w1\ntitle: W1\ndue: '{'2' * 5000}'\ndrills: [a.yaml]\n")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "s.set.yaml")])
    assert result.exit_code == 1
    problem = result.output.splitlines()[0]
    assert problem == f"{tmp_path / 's.set.yaml'}:3:6: `due` must be a date written YYYY-MM-DD, got '{'2' * 76}..."


def _import(tmp_path: Path, fmt: str, name: str, record: object) -> tuple[int, str, list[Path]]:
    source = tmp_path / name
    source.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["import", fmt, str(source), "--out", str(tmp_path / "out")])
    return result.exit_code, result.output, sorted((tmp_path / "out").glob("*.yaml"))


def test_a_langfuse_observation_listed_twice_with_another_output_is_refused_not_read_as_its_first_copy(tmp_path: Path):
    """The second copy of an observation (same id) saying the tool returned 40 invoices, not 20, was dropped without
    a word: the drill showed the first. OTLP spans twice in a trace are refused; a Langfuse observation listed twice
    is read once only when both copies say the same."""
    record = json.loads((FIXTURES / "thirdparty" / "langfuse-trace.json").read_text())
    copy = json.loads(json.dumps(record["observations"][1]))
    copy["output"] = {"returned": 40, "total": 40, "next_cursor": None}
    record["observations"].append(copy)
    code, output, drills = _import(tmp_path, "langfuse", "lf.json", record)
    assert code == 1 and drills == []
    assert (f"{tmp_path / 'lf.json'}:1:1: the document.observations[2]: observation 'd2e3f4a5b6071829' is listed twice "
            "with a different `output`: keep one copy of each observation (export the trace again)") in output


def test_a_langfuse_observation_listed_twice_the_same_is_still_read_once(tmp_path: Path):
    record = json.loads((FIXTURES / "thirdparty" / "langfuse-trace.json").read_text())
    record["observations"].append(json.loads(json.dumps(record["observations"][1])))
    code, output, drills = _import(tmp_path, "langfuse", "lf.json", record)
    assert code == 0, output
    assert len([e for e in yaml.safe_load(drills[0].read_text())["trace"] if e["kind"] == "tool_call"]) == 1


def test_a_langsmith_run_given_twice_with_another_output_is_refused(tmp_path: Path):
    runs = json.loads((FIXTURES / "thirdparty" / "langsmith-planner-executor.json").read_text())
    tool = next(r for r in runs if r["run_type"] == "tool")
    runs.append({**tool, "outputs": {"output": "another result"}})
    code, output, drills = _import(tmp_path, "langsmith", "ls.json", runs)
    assert code == 1 and drills == []
    assert (f"{tmp_path / 'ls.json'}:1:1: run '{tool['id']}' is given twice with a different `outputs`: keep one copy "
            "of each run (export the trace again)") in output


def test_an_openai_agents_span_written_twice_ended_with_another_output_is_refused(tmp_path: Path):
    """A span written when it starts and again when it ends is read as it ended; two ended copies that disagree were
    read as the later one, silently."""
    record = json.loads((FIXTURES / "thirdparty" / "openai-agents-trace.json").read_text())
    span = next(x for x in record["data"] if x.get("span_data", {}).get("type") == "function")
    record["data"].append({**span, "span_data": {**span["span_data"], "output": "another result"}})
    code, output, drills = _import(tmp_path, "openai-agents", "oa.json", record)
    assert code == 1 and drills == []
    assert f"span '{span['id']}' is written twice, ended, with a different `span_data`" in output


def _drill_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (DRILLS / "api-dns-cutover.yaml").read_text()
    assert old in text
    path = tmp_path / "api-dns-cutover.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("old", "new"), [
    ("\ndifficulty: 4\n", "\ndifficulty:\t4\n"),  # a tab after the colon
    ("\nversion: 1\n", "\nversion: 1\t# a tab before a comment\n"),
])
def test_annotate_saves_into_a_valid_drill_holding_a_tab_ruamel_yaml_refuses(tmp_path: Path, old: str, new: str):
    """YAML 1.2 allows a tab as a separator (after a key's colon, before a comment), and warroom reads such a drill;
    ruamel.yaml, which the save writes with, refused the file: even a save that changed nothing raised "ruamel.yaml
    cannot read the file", and no answer key could be saved into it. Its tabs are read as spaces by the save; the
    file's own lines are kept with their tabs."""
    from warroom.core.author import open_for_annotation, write_draft
    from warroom.core.load import load_drill

    path = _drill_with(tmp_path, old, new)
    text = path.read_text()
    before = load_drill(path)
    marked = open_for_annotation(path)
    write_draft(path, marked.draft, marked.event_order, marked.sha256)
    assert path.read_text() == text  # nothing changed: byte for byte
    marked = open_for_annotation(path)
    marked.draft.summary = "The record went to the private zone."
    write_draft(path, marked.draft, marked.event_order, marked.sha256)
    after = load_drill(path)
    assert after.answer_key.fault.summary == "The record went to the private zone."
    assert after.model_dump(exclude={"answer_key"}) == before.model_dump(exclude={"answer_key"})
    assert new.strip("\n") in path.read_text().splitlines()  # the tab line as written


@pytest.mark.parametrize(("drill", "template", "event"), [
    ("staging-volume-resize", "error-flag-ignored", "e13"),
    ("winback-sms-lapsed-members", "wrong-record", "e15"),
])
def test_a_projection_at_a_result_the_source_calls_a_distractor_is_written_without_that_distractor(
        tmp_path: Path, drill: str, template: str, event: str):
    """`warroom project --list` said these sites could be projected, and projecting them failed: the source (a drill
    with a twin) calls the result a distractor, and the template made it the fault's evidence ("event is evidence of
    the fault, so it cannot also be a distractor"). The distractor on the changed result is left out, and said so."""
    listed = CliRunner().invoke(main, ["project", "--list", str(DRILLS / f"{drill}.yaml")])
    rows = [line.split() for line in listed.output.splitlines()]
    assert any(row[:2] == [template, event] and row[-1] == "yes" for row in rows)
    result = CliRunner().invoke(main, ["project", str(DRILLS / f"{drill}.yaml"), "--template", template, "--at", event,
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"the source's distractor {event} is left out (its result is the one changed)" in result.output
    (written,) = tmp_path.glob("*.yaml")
    data = yaml.safe_load(written.read_text())
    source = yaml.safe_load((DRILLS / f"{drill}.yaml").read_text())
    assert [d["event"] for d in data["distractors"]][: len(source["distractors"]) - 1] == [
        d["event"] for d in source["distractors"] if d["event"] != event]
    assert CliRunner().invoke(main, ["validate", str(written)]).exit_code == 0


def test_a_drill_folder_holding_a_link_out_of_it_names_the_link_when_the_search_is_too_large(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A symbolic link to ``/`` inside a drill folder made `validate FOLDER` walk the file system (through /proc),
    and the refusal said to "name the folder that holds the drills, not a folder above them": the folder named was
    the right one. The refusal names the link that leads out of the folder, and what to do."""
    from warroom.core.library import _library

    monkeypatch.setattr(_library, "MAX_WALK_ENTRIES", 50)
    lib, elsewhere = tmp_path / "lib", tmp_path / "elsewhere"
    lib.mkdir()
    elsewhere.mkdir()
    for i in range(60):
        (elsewhere / f"f{i}.txt").write_text("")
    (lib / "a.yaml").write_text((DRILLS / "duplicate-charge-refunds.yaml").read_text())
    (lib / "shared").symlink_to(elsewhere)
    result = CliRunner().invoke(main, ["validate", str(lib)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"Error: {lib}: more than 50 files and folders under it (the search for drill files stops there): the symbolic "
        f"link {lib / 'shared'} -> {elsewhere} in it leads out of it: move that link away, or link the folder that "
        "holds the drills instead")


def test_a_drill_folder_too_large_without_a_link_out_keeps_its_advice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from warroom.core.library import _library

    monkeypatch.setattr(_library, "MAX_WALK_ENTRIES", 50)
    for i in range(60):
        (tmp_path / f"f{i}.txt").write_text("")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1].endswith(
        "(the search for drill files stops there): name the folder that holds the drills (or a file), not a folder "
        "above them")


def test_a_dangling_symbolic_link_in_a_drill_folder_is_named_as_one_not_as_no_such_file(tmp_path: Path):
    """`validate FOLDER` listed a link to a file that is gone as ``no such file``, a file the author sees in the
    folder: it is named as a link to nothing, with its target (escaped) and what to do."""
    (tmp_path / "a.yaml").write_text((DRILLS / "duplicate-charge-refunds.yaml").read_text())
    (tmp_path / "duplicate-charge-refunds.yaml").symlink_to("moved\naway.yaml")
    (tmp_path / "a.yaml").rename(tmp_path / "kept.yaml")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert (f"{tmp_path / 'duplicate-charge-refunds.yaml'}:1:1: a symbolic link to moved\\x0aaway.yaml, which does "
            "not exist: point it at a drill file or remove it") in result.output.splitlines()


def test_a_trace_id_of_thousands_of_characters_is_named_cut_short(tmp_path: Path):
    """`--trace-id` of 5,000 characters was echoed whole in the refusal's one line."""
    result = CliRunner().invoke(main, ["import", "otel", str(FIXTURES / "otel" / "current.json"), "--trace-id",
                                       "x" * 5000, "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert (f"{FIXTURES / 'otel' / 'current.json'}:1:1: no trace {'x' * 77}... in this file; its trace ids: "
            "48f165d57b00c7f4781ef86f5c8cc1ab") in result.output.splitlines()
