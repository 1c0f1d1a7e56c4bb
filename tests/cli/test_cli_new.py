"""`warroom new`: the skeleton drill validates and checks as written; no overwrite; bad ids rejected."""

from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.author import (
    LOCAL_SCHEMA_REF,
    REPO_SCHEMA_REF,
    example_text,
    skeleton_text,
)
from warroom.core.load import load_drill_text
from warroom.core.model import Drill
from warroom.core.play import EndReason, Replay
from warroom.core.text import is_valid_id


def _new(tmp_path, *args):
    return CliRunner().invoke(main, ["new", *args, "--out", str(tmp_path)], catch_exceptions=False)


def test_new_writes_a_drill_that_loads(tmp_path):
    result = _new(tmp_path, "my-first-drill")
    assert result.exit_code == 0, result.output
    path = tmp_path / "my-first-drill.yaml"
    text = path.read_text()
    assert text.startswith(f"# yaml-language-server: $schema={LOCAL_SCHEMA_REF}\n")
    assert "warroom schema --output drill.schema.json" in text
    loader = pytest.importorskip("warroom.core.load._loader", reason="the loader (issue 2) has not landed yet")
    drill = loader.load_drill(path)
    assert drill.id == "my-first-drill"
    assert drill.answer_key is not None and drill.distractors


def test_new_writes_a_format_2_skeleton_that_validates_and_checks_as_written(tmp_path):
    result = _new(tmp_path, "fresh")
    assert result.exit_code == 0, result.output
    path = tmp_path / "fresh.yaml"
    from warroom.core.load._loader import load_drill_text_with_warnings

    drill, warnings = load_drill_text_with_warnings(path.read_text(), str(path))
    assert (drill.id, drill.schema_version, warnings) == ("fresh", 2, [])
    assert [(a.name, a.role.value, a.model) for a in drill.agents] == [
        ("planner", "planner", drill.models.planner.name),
        ("executor", "executor", drill.models.executor.name),
    ]
    text = path.read_text()
    assert "--example full" in text and "docs/authoring.md" in text  # where the rest of format 2 is
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == 0, validated.output
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    assert "1 passed" in checked.output


def test_new_skeleton_passes_run_checks(tmp_path):
    assert _new(tmp_path, "skel").exit_code == 0
    check = pytest.importorskip("warroom.core.author._check", reason="warroom check (issue 3) has not landed yet")
    drill = Drill.model_validate(yaml.safe_load((tmp_path / "skel.yaml").read_text()))
    report = check.run_checks(drill)
    assert report.ok, report


def test_skeleton_is_winnable_and_loses_when_ignored():
    drill = Drill.model_validate(yaml.safe_load(skeleton_text("skel")))
    key = drill.answer_key
    first = min(drill.event(e).t for e in key.evidence)
    assert first < key.deadline < drill.duration

    ideal = Replay(drill)
    ideal.advance(first)
    assert ideal.escalate(key.fault.origin_step, "ok false").contained
    ideal.advance(1000)
    assert ideal.end_reason is EndReason.CONTAINED and ideal.damage == 0

    never = Replay(drill)
    never.advance(1000)
    assert never.end_reason is EndReason.END_OF_TRACE
    assert never.damage == never.full_damage > 0


def test_new_refuses_to_overwrite(tmp_path):
    path = tmp_path / "taken.yaml"
    path.write_text("mine\n")
    result = CliRunner().invoke(main, ["new", "taken", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "already exists" in result.output
    assert result.stderr.startswith("Error: ") and "error: " not in result.stderr  # as every command words a failure
    assert path.read_text() == "mine\n"


@pytest.mark.parametrize("bad", ["bad id", "-leading-dash", "../escape", "a/b", "x" * 81, "", "é", "abc\n", "abc\n\n"])
def test_new_rejects_invalid_ids(tmp_path, bad):
    result = CliRunner().invoke(main, ["new", "--out", str(tmp_path), "--", bad])
    assert result.exit_code == 2, result.output
    assert "Invalid value for ID" in result.output
    assert list(tmp_path.iterdir()) == []


def test_new_creates_the_out_folder(tmp_path):
    out = tmp_path / "a" / "b"
    result = CliRunner().invoke(main, ["new", "nested", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "nested.yaml").is_file()


def test_new_in_a_repo_drills_folder_points_at_the_repo_schema(tmp_path):
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "drill.schema.json").write_text("{}")
    (tmp_path / "drills").mkdir()
    result = CliRunner().invoke(main, ["new", "inside", "--out", str(tmp_path / "drills")])
    assert result.exit_code == 0, result.output
    first = (tmp_path / "drills" / "inside.yaml").read_text().splitlines()[0]
    assert first == f"# yaml-language-server: $schema={REPO_SCHEMA_REF}"


@pytest.mark.parametrize("drill_id", ["123", "yes", "null", "1e3", "a.b_c-d"])
def test_ids_that_yaml_would_retype_stay_strings(drill_id):
    assert is_valid_id(drill_id)
    drill = Drill.model_validate(yaml.safe_load(skeleton_text(drill_id)))
    assert drill.id == drill_id


def test_new_example_full_writes_a_format2_drill_that_validates_and_checks(tmp_path):
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.load import load_drill

    result = CliRunner().invoke(main, ["new", "my-agents", "--out", str(tmp_path), "--example", "full"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "my-agents.yaml"
    assert path.read_text().startswith("# yaml-language-server: $schema=drill.schema.json\n")
    drill = load_drill(path)
    assert (drill.id, drill.schema_version) == ("my-agents", 2)
    assert {a.role.value for a in drill.agents} == {"planner", "executor", "sub-agent", "human", "tool-host"}
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 0, checked.output


def test_the_skeleton_quotes_every_text_inside_braces_so_an_edit_with_a_comma_stays_valid(tmp_path):
    """Authors replace the skeleton's texts with their own; an unquoted text inside {...} that gains a comma
    ("Runs tests, tags and publishes.") is cut at the comma. Every text value the skeleton writes inside {...} on
    the agents' lines is quoted, so such an edit stays valid."""
    text = skeleton_text("demo")
    agent_lines = [ln for ln in text.splitlines() if ln.startswith("  - {name:")]
    assert agent_lines
    for line in agent_lines:
        assert 'description: "' in line, line
    edited = text.replace("Runs the plan's tool calls and reports.", "Runs the tools, reports, and retries.")
    assert edited != text
    assert load_drill_text(edited).agents[1].description == "Runs the tools, reports, and retries."


@pytest.mark.parametrize("example", ["basic", "full", "loop"])
def test_the_skeletons_parse_with_every_pyyaml_reader(example: str):
    """A skeleton is copied by authors into their tools (linters, editors, scripts): it must read the same with
    PyYAML's pure-Python reader as with libyaml. (The pure-Python scanner refuses a `?` right before the `}` of a
    flow mapping, `{content: Pay 20 invoices?}`, which libyaml accepts: such texts are quoted.)"""
    text = skeleton_text("demo") if example == "basic" else example_text(example, "demo", LOCAL_SCHEMA_REF)
    pure = yaml.load(text, Loader=yaml.SafeLoader)
    assert pure == yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert pure["id"] == "demo"


@pytest.mark.parametrize("drill_id", ["x", "coupon-refresh", "a" * 40])
def test_the_id_line_keeps_its_comment_in_line_with_the_others(drill_id):
    # QA: the comment stood where the placeholder `@ID@` left it (`id: "coupon-refresh"` then 26 spaces).
    lines = skeleton_text(drill_id).splitlines()
    id_line = next(line for line in lines if line.startswith("id: "))
    title_line = next(line for line in lines if line.startswith("title: "))
    column = id_line.index("# must equal")
    assert column == max(title_line.index("# shown"), len(f'id: "{drill_id}"') + 2)
    assert id_line[:column].rstrip() == f'id: "{drill_id}"'


def _round2_fields(data: dict) -> set[str]:
    """The format-2 round-2 fields (issue 34) a drill's data uses as YAML (comments do not count)."""
    key = data.get("answer_key") or {}
    fault, damage, deadline = key.get("fault", {}), key.get("damage", {}), key.get("deadline")
    found = {
        "parallel": any(s.get("parallel") is True for s in data["plan"]),
        "approval_for": any("approval_for" in s for s in data["plan"]),
        "spend": bool(damage.get("spend")),
        "budget deadline": isinstance(deadline, dict) and "budget" in deadline,
        "origin: handoff": fault.get("origin") == "handoff" and "origin_event" in fault,
        "probe answers": any(p.get("answers") for p in data.get("probes", [])),
        "distractor field": any("path" in d for d in data.get("distractors", [])),
        "accepted evidence field": any(isinstance(a, dict) and "path" in a for a in key.get("accepted_evidence", [])),
        "repeat": any("repeat" in e for e in data["trace"]),
    }
    return {name for name, used in found.items() if used}


ROUND2_FIELDS = {"parallel", "approval_for", "spend", "budget deadline", "origin: handoff", "probe answers",
                 "distractor field", "accepted evidence field", "repeat"}


def test_the_examples_hold_every_round_2_field_as_yaml_that_validates_and_checks(tmp_path):
    """`warroom new --example full` and `--example loop` (one drill cannot hold a payments cascade and a spend budget
    consistently): each validates, passes `warroom check` and the JSON Schema, and between them every field format 2
    gained in round 2 (issue 34) is real YAML, not a comment."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author._schema import drill_json_schema
    from warroom.core.load import load_drill

    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(drill_json_schema())
    used: dict[str, set[str]] = {}
    for example in ("full", "loop"):
        result = CliRunner().invoke(main, ["new", f"my-{example}", "--out", str(tmp_path), "--example", example])
        assert result.exit_code == 0, result.output
        path = tmp_path / f"my-{example}.yaml"
        assert load_drill(path).id == f"my-{example}"
        checked = CliRunner().invoke(main, ["check", str(path)])
        assert checked.exit_code == 0 and "PASS" in checked.output, checked.output
        data = yaml.safe_load(path.read_text())
        assert [e.message for e in validator.iter_errors(data)] == []
        used[example] = _round2_fields(data)
    assert used["full"] | used["loop"] == ROUND2_FIELDS
    assert {"parallel", "spend", "budget deadline", "origin: handoff"} <= used["loop"]


def test_the_json_schema_has_every_round_2_field():
    from warroom.core.author._schema import drill_json_schema

    defs = drill_json_schema()["definitions"]
    assert {"parallel", "approval_for"} <= set(defs["PlanStep"]["properties"])
    assert "spend" in defs["Damage"]["properties"]
    deadline = defs["AnswerKey"]["properties"]["deadline"]["anyOf"]
    assert any("budget" in (d.get("properties") or defs.get(d.get("$ref", "").split("/")[-1], {}).get("properties", {}))
               for d in deadline)
    assert "handoff" in defs["FaultOrigin"]["enum"] and "origin_event" in defs["Fault"]["properties"]
    assert {"until", "until_event", "reveals"} <= set(defs["ProbeAnswer"]["properties"])
    assert "answers" in defs["Probe"]["properties"]
    assert "path" in defs["Distractor"]["properties"] and "path" in defs["FieldRef"]["properties"]


@pytest.mark.parametrize("given", ["refunds.yaml", "refunds.YML"])
def test_new_given_a_file_name_writes_that_file_with_the_id_before_its_suffix(tmp_path, given):
    """`warroom new refunds.yaml` wrote refunds.yaml.yaml, a drill of id `refunds.yaml` that a drill set cannot name
    by id (an id ending in .yaml is read there as a path): the file name's suffix is not part of the id."""
    result = _new(tmp_path, given)
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["refunds.yaml"]
    assert yaml.safe_load((tmp_path / "refunds.yaml").read_text())["id"] == "refunds"
    assert _new(tmp_path, "refunds.yaml").exit_code == 1  # and it exists now: never overwritten


@pytest.mark.parametrize("under", ["", "sub"])
def test_new_into_a_symbolic_link_to_nothing_names_the_link_not_an_existing_drill(tmp_path, under):
    # `--out LINK` (or a folder under it) where LINK points at nothing said "LINK/x.yaml already exists"
    (tmp_path / "out").symlink_to(tmp_path / "gone")
    out = tmp_path / "out" / under if under else tmp_path / "out"
    result = CliRunner().invoke(main, ["new", "x", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "already exists" not in result.output
    assert (
        f"is a symbolic link to {tmp_path / 'gone'}, which does not exist: point it at a folder or remove it"
        in result.output
    )
    assert not (tmp_path / "gone").exists()


def test_new_into_a_symbolic_link_loop_is_refused_without_a_traceback(tmp_path):
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    result = CliRunner().invoke(main, ["new", "x", "--out", str(tmp_path / "loop")])
    assert result.exit_code == 1, result.output
    assert "loop is a symbolic link that leads round in a loop, to no file: point it at a folder" in result.output
