"""The format-2 example drill shipped in the package (``warroom/core/author/examples/fanout-retries.yaml``) and the seed
worked example of ``warroom cost --example``, which
``warroom new ID --example full`` writes under the author's id."""

from __future__ import annotations

import re
from pathlib import Path

#: The example's own id, replaced by the author's.
FULL_EXAMPLE_ID = "fanout-retries"


def full_example_path() -> Path:
    """The packaged format-2 example drill: every part of format version 2, valid and checked as written."""
    return Path(__file__).resolve().parent / "examples" / f"{FULL_EXAMPLE_ID}.yaml"


def seed_example_path() -> Path:
    """The drill file that reproduces the seed worked example (``warroom cost --example``): shipped in the package
    as ``warroom/core/author/examples/seed-cost.yaml``."""
    return Path(__file__).resolve().parent / "examples" / "seed-cost.yaml"


def full_example_text(drill_id: str, schema_ref: str) -> str:
    """The example drill's text with ``id`` set to ``drill_id`` (a valid id, checked by the caller) and a first
    line pointing VS Code at the drill schema ``schema_ref``."""
    text = full_example_path().read_text(encoding="utf-8")
    text = re.sub(rf"^id: {FULL_EXAMPLE_ID}$", f"id: {drill_id}", text, count=1, flags=re.MULTILINE)
    return f"# yaml-language-server: $schema={schema_ref}\n" + text
