"""The field reference in docs/authoring.md is generated from the drill model and must not drift from it."""

from __future__ import annotations

import pytest
from locations import REPO

from warroom.core.author import _fieldref as fieldref
from warroom.core.model import FAULT_KIND_DESCRIPTIONS, Drill, FaultKind

AUTHORING = REPO / "docs" / "authoring.md"


def test_authoring_guide_reference_matches_the_model():
    doc = AUTHORING.read_text(encoding="utf-8")
    assert fieldref.replace_section(doc) == doc, (
        "docs/authoring.md is out of date: run `python -m warroom.core.author._fieldref --write docs/authoring.md`"
    )


def test_reference_lists_every_field_of_every_model():
    text = fieldref.field_reference()
    for _, model in fieldref.SECTIONS:
        for name in model.model_fields:
            assert f"| `{name}` |" in text, f"{model.__name__}.{name} missing"
    for kind in FaultKind:
        assert f"| `{kind.value}` | {FAULT_KIND_DESCRIPTIONS[kind]} |" in text


def test_every_drill_model_has_a_section():
    """A new model added to the format must get a section (walks the models reachable from Drill)."""
    import typing

    from pydantic import BaseModel

    seen: set[type] = set()

    def walk(tp):
        for arg in typing.get_args(tp) or ():
            walk(arg)
        if isinstance(tp, type) and issubclass(tp, BaseModel) and tp not in seen:
            seen.add(tp)
            for info in tp.model_fields.values():
                walk(info.annotation)

    walk(Drill)
    documented = {model for _, model in fieldref.SECTIONS}
    assert seen <= documented, f"models without a section: {sorted(m.__name__ for m in seen - documented)}"


def test_types_and_presence_are_rendered_for_readers():
    text = fieldref.field_reference()
    assert "| `evidence` | list of id or evidence item (format 2) | required |" in text
    assert "| `level` | `debug` or `info` or `warning` or `error` | optional, default `\"info\"` |" in text
    assert "| `difficulty` | integer | required | 1 (easy) to 5 (hard). (>= 1, <= 5) |" in text
    assert "| `answer_key` | answer_key (optional) | optional |" in text


def test_write_rewrites_only_the_marked_section(tmp_path, capsys):
    doc = tmp_path / "guide.md"
    doc.write_text(f"# Title\n\nintro\n\n{fieldref.BEGIN_MARKER}\nstale text\n{fieldref.END_MARKER}\n\noutro\n")
    assert fieldref.main(["--write", str(doc)]) == 0
    new = doc.read_text()
    assert new.startswith("# Title\n\nintro\n\n") and new.endswith(f"{fieldref.END_MARKER}\n\noutro\n")
    assert "stale text" not in new
    assert fieldref.replace_section(new) == new and fieldref.field_reference() in new
    assert fieldref.main(["--write", str(doc)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_write_without_markers_is_a_clear_error(tmp_path, capsys):
    doc = tmp_path / "plain.md"
    doc.write_text("no markers here\n")
    assert fieldref.main(["--write", str(doc)]) == 1
    assert "no section between" in capsys.readouterr().err
    assert doc.read_text() == "no markers here\n"
    with pytest.raises(ValueError):
        fieldref.replace_section("nothing")
