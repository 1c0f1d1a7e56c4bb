"""The format-2 example drills shipped in the package, which ``warroom new ID --example NAME`` writes under the
author's id (``full``: ``warroom/core/author/examples/fanout-retries.yaml``; ``loop``: ``handoff-loop.yaml``, the
parts one drill with a payments cascade cannot hold consistently: a handoff as the origin, parallel steps, spend as
damage with a budget deadline), and the seed worked example of ``warroom cost --example``."""

from __future__ import annotations

import re
from pathlib import Path

#: Each example of ``warroom new --example`` but the skeleton (``basic``): its name and its drill's own id (its file
#: is ``examples/ID.yaml``).
EXAMPLES: dict[str, str] = {"full": "fanout-retries", "loop": "handoff-loop"}


def seed_example_path() -> Path:
    """The drill file that reproduces the seed worked example (``warroom cost --example``): shipped in the package
    as ``warroom/core/author/examples/seed-cost.yaml``."""
    return Path(__file__).resolve().parent / "examples" / "seed-cost.yaml"


def example_path(example: str) -> Path:
    """The packaged drill of the example named ``example`` (a key of :data:`EXAMPLES`; KeyError otherwise)."""
    return Path(__file__).resolve().parent / "examples" / f"{EXAMPLES[example]}.yaml"


def example_text(example: str, drill_id: str, schema_ref: str) -> str:
    """The text of the example named ``example`` (:data:`EXAMPLES`) with ``id`` set to ``drill_id`` (a valid id,
    checked by the caller) and a first line pointing VS Code at the drill schema ``schema_ref``."""
    text = example_path(example).read_text(encoding="utf-8")
    text = re.sub(rf"^id: {EXAMPLES[example]}$", f"id: {drill_id}", text, count=1, flags=re.MULTILINE)
    return f"# yaml-language-server: $schema={schema_ref}\n" + text

