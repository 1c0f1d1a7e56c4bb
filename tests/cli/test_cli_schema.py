"""`warroom schema`: a draft-07 JSON Schema with a description on every field; the committed copy cannot drift."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from locations import REPO

from warroom.cli import main
from warroom.core.author import drill_json_schema_text
from warroom.core.author._schema import drill_json_schema
from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.load import load_yaml_text

COMMITTED = REPO / "schema" / "drill.schema.json"


def walk(node: Any, path: str = "#"):
    """Yield (path, node) for every dict in the schema."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from walk(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}/{i}")


def test_schema_command_prints_the_schema():
    result = CliRunner().invoke(main, ["schema"], catch_exceptions=False)
    assert result.exit_code == 0
    assert json.loads(result.output) == drill_json_schema()


def test_committed_schema_equals_the_command_output():
    assert COMMITTED.read_text(encoding="utf-8") == drill_json_schema_text(), (
        "schema/drill.schema.json is stale: run `warroom schema --output schema/drill.schema.json`"
    )


def test_output_option_writes_the_file(tmp_path: Path):
    out = tmp_path / "drill.schema.json"
    result = CliRunner().invoke(main, ["schema", "--output", str(out)], catch_exceptions=False)
    assert result.exit_code == 0
    assert out.read_text(encoding="utf-8") == drill_json_schema_text()


def test_output_to_an_unwritable_place_is_a_clear_error(tmp_path: Path):
    target = tmp_path / "no" / "such" / "dir" / "s.json"
    result = CliRunner().invoke(main, ["schema", "--output", str(target)])
    assert result.exit_code == 1  # as every command words a failure writing a file (click's form, FILE: message)
    assert result.stderr == (f"Error: {target}: cannot write the schema: the folder {target.parent} does not exist: "
                             f"create it (mkdir -p {target.parent}) or name a file in a folder that exists; nothing "
                             "was written\n")


def test_schema_is_draft_07_with_definitions_only():
    schema = drill_json_schema()
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    text = json.dumps(schema)
    assert "$defs" not in text
    definitions = schema["definitions"]
    for path, node in walk(schema):
        if "$ref" in node:
            assert set(node) == {"$ref"}, f"{path}: draft-07 ignores keywords beside $ref"
            ref = node["$ref"]
            assert ref.startswith("#/definitions/") and ref.removeprefix("#/definitions/") in definitions, path


def test_every_property_has_a_description():
    missing = [
        f"{path}/properties/{name}"
        for path, node in walk(drill_json_schema())
        if isinstance(node.get("properties"), dict)
        for name, prop in node["properties"].items()
        if not prop.get("description")
    ]
    assert missing == []


def test_fault_kinds_carry_their_descriptions_for_editors():
    fault_kind = drill_json_schema()["definitions"]["FaultKind"]
    assert len(fault_kind["enumDescriptions"]) == len(fault_kind["enum"])
    assert "stale_data" in fault_kind["enum"]


def test_schema_is_a_valid_draft_07_schema_that_accepts_the_bundled_drills():
    jsonschema = pytest.importorskip("jsonschema")
    schema = drill_json_schema()
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for path in find_drill_files([bundled_drills_dir()]):
        data = load_yaml_text(path.read_text(encoding="utf-8"), str(path))
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], path
    bad = load_yaml_text((REPO / "tests" / "malformed" / "unknown-key-typo.yaml").read_text())
    assert any("evidnce" in e.message for e in validator.iter_errors(bad))
