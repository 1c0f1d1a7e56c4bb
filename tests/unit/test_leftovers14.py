"""Issue 30's leftovers of the fourteenth stop: YAML's indicators before quoted text, zip archives named as such, an
output folder left by a refused projection, and numbers of a drill (set) read or shown as they were not written."""

from __future__ import annotations

from pathlib import Path

import pytest


def _full_title(value: str) -> str:
    """The full example with its title written ``value``."""
    from warroom.core.author._examples import example_path

    text = example_path("full").read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("title: "))
    return text.replace(old, f"title: {value}", 1)


@pytest.mark.parametrize(("value", "quoted", "read"), [
    ('&Co "replies"', '"&Co replies"', "replies"),
    ("&Co 'replies'", '"&Co replies"', "replies"),
    ('! "urgent"', '"! urgent"', "urgent"),
])
def test_an_anchor_or_tag_before_quoted_text_is_warned_with_the_text_to_write(value: str, quoted: str, read: str,
                                                                              tmp_path: Path) -> None:
    """`title: &Co "replies"` was the title `replies` without a word: the anchor before the quotes is YAML's."""
    from warroom.core.load import load_drill_with_warnings

    path = tmp_path / "fanout-retries.yaml"
    path.write_text(_full_title(value), encoding="utf-8")
    drill, warnings = load_drill_with_warnings(path)
    assert drill.title == read
    cut = [w for w in warnings if w.rule == "indicator-cut"]
    assert len(cut) == 1 and cut[0].message.endswith(f"put it all in quotes: {quoted}"), warnings
    path.write_text(_full_title(quoted), encoding="utf-8")
    drill, again = load_drill_with_warnings(path)
    assert drill.title == quoted[1:-1] and not [w for w in again if w.rule == "indicator-cut"]
