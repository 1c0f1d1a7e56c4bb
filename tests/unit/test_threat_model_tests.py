"""The threat model (docs/cohorts.md, "What a trainee can and cannot do to their results"; docs/reliability.md)
names the tests behind its promises: every test and test file it names exists, so a renamed or deleted test shows
here instead of leaving a promise without its test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _section(text: str, title: str) -> str:
    start = text.index(title)
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else None]


def test_every_test_the_threat_model_names_exists():
    model = _section((ROOT / "docs" / "cohorts.md").read_text(encoding="utf-8"), "## What a trainee can and cannot")
    names = set(re.findall(r"`(test_\w+)`", model))
    files = set(re.findall(r"\b(tests/[\w/]+\.py)\b", model))
    files |= set(re.findall(r"\b(tests/[\w/]+\.py)\b", (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")))
    assert len(names) >= 15 and {"tests/unit/test_notice_boxes.py", "tests/unit/test_duplicate_keys.py"} <= files
    missing_files = sorted(f for f in files if not (ROOT / f).is_file())
    assert missing_files == []
    defined = {m for f in (ROOT / "tests").rglob("test_*.py")
               for m in re.findall(r"^(?:async )?def (test_\w+)", f.read_text(encoding="utf-8"), re.M)}  # fmt: skip
    assert sorted(names - defined) == []
