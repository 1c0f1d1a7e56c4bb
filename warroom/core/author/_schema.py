"""The drill format as a JSON Schema (draft-07) for editors such as VS Code (``warroom schema`` prints it).

The schema is generated from the pydantic models of :mod:`warroom.core.model`, so it always matches what the
loader accepts (the semantic rules of :mod:`warroom.core.rules` are beyond JSON Schema; ``warroom validate``
checks those). The repository keeps a copy in ``schema/drill.schema.json``; a test checks that it equals
:func:`drill_json_schema_text`.
"""

from __future__ import annotations

from typing import Any

DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def _to_draft07(node: Any) -> Any:
    """Rewrite pydantic's 2020-12 output for draft-07: ``$defs`` -> ``definitions`` and ``$ref`` without siblings.

    In draft-07 every keyword next to a ``$ref`` is ignored, so a ``$ref`` that carries a description or a default
    is wrapped in ``allOf`` to keep them.
    """
    if isinstance(node, list):
        return [_to_draft07(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$defs":
            out["definitions"] = {name: _to_draft07(d) for name, d in value.items()}
        elif key == "$ref" and isinstance(value, str):
            out["$ref"] = value.replace("#/$defs/", "#/definitions/")
        elif key == "discriminator" and isinstance(value, dict):
            # OpenAPI's keyword, unknown to JSON Schema validators: keep only a plain note of the tag's name.
            out["discriminator"] = {"propertyName": value.get("propertyName")}
        else:
            out[key] = _to_draft07(value)
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out = {"allOf": [{"$ref": ref}], **out}
    return out


def drill_json_schema() -> dict[str, Any]:
    """The drill format as a draft-07 JSON Schema (a JSON-ready dict)."""
    from warroom.core.model import FAULT_KIND_DESCRIPTIONS, Drill, FaultKind

    raw = Drill.model_json_schema(mode="validation")
    schema = _to_draft07(raw)
    fault_kind = schema.get("definitions", {}).get("FaultKind")
    if fault_kind is not None:  # shown by VS Code next to each value while completing
        fault_kind["enumDescriptions"] = [FAULT_KIND_DESCRIPTIONS[k] for k in FaultKind]
    return {
        "$schema": DRAFT_07,
        **{k: v for k, v in schema.items() if k != "$schema"},
    }


def drill_json_schema_text() -> str:
    """The schema as the text ``warroom schema`` prints: JSON indented by 2 spaces, ending in a newline."""
    import json

    return json.dumps(drill_json_schema(), indent=2, ensure_ascii=False) + "\n"
