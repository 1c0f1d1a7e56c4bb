"""Comments after a number, ``true``, ``false`` or ``null`` are decided from the text
(warroom.core.load._fast.comments):
the verdict of ``comments_harmless`` is the one the second parse gives, on random comment placements."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from warroom.core.library import bundled_drills_dir
from warroom.core.load._fast import comments as fastcomments
from warroom.core.load._fast.comments import comments_harmless
from warroom.core.load._fast.load import _parse

DRILLS = sorted(bundled_drills_dir().glob("*.yaml"))
COMMENTS = ["  # note", " # 12: x", "  # }", "  # a, [b]", " #", "  # see: 3 # again"]


def _verdicts(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, bool] | None:
    data = _parse(text)
    if data.__class__ is not dict:
        return None
    calls: list[str] = []

    def parse(marked: str) -> object:
        calls.append(marked)
        return _parse(marked)

    new = comments_harmless(text, data, parse)
    with monkeypatch.context() as patch:  # the rule off: every such comment is marked and parsed again
        patch.setattr(fastcomments, "_NOT_TEXT_END", re.compile(r"(?!)"))
        old = comments_harmless(text, data, _parse)
    return new, old


NUMBER_LINE = re.compile(r"^ *(?:- )?(?:[A-Za-z_]+: +)?(?:-?[0-9]+(?:\.[0-9]+)?|true|false|null)$")


def _commented(text: str, rng: random.Random) -> str:
    """``text`` with comments put at random: after any line, or (half the time) only after lines ending in a number,
    ``true``, ``false`` or ``null``, so that the rule decides alone."""
    lines = text.split("\n")
    numbers = [i for i, line in enumerate(lines) if NUMBER_LINE.match(line)]
    only_numbers = bool(numbers) and rng.random() < 0.5
    for _ in range(rng.randint(1, 6)):
        at = rng.choice(numbers) if only_numbers else rng.randrange(len(lines))
        line = lines[at]
        if only_numbers:
            lines[at] = line + rng.choice(COMMENTS)
            continue
        if rng.random() < 0.2 and line.strip():  # a value turned into a number, true, false or null
            key = re.match(r"^( *(?:- )?[A-Za-z_]+:) ", line)
            if key:
                line = key.group(1) + " " + rng.choice(["12", "-3.5", "true", "false", "null", "7"])
        if rng.random() < 0.15:  # a line continuing a text of several lines with a number
            lines.insert(at + 1, " " * (len(line) - len(line.lstrip()) + 2) + rng.choice(["- 12", "12", "x: 3"]))
        lines[at] = line + rng.choice(COMMENTS)
    return "\n".join(lines)


@pytest.mark.parametrize("path", DRILLS, ids=lambda p: p.stem)
def test_random_comment_placements_give_the_second_parses_verdict(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(path.stem)
    text = path.read_text(encoding="utf-8")
    compared = 0
    for _ in range(25):
        verdicts = _verdicts(_commented(text, rng), monkeypatch)
        if verdicts is not None:
            new, old = verdicts
            assert new == old
            compared += 1
    assert compared > 5  # most placements still parse


@pytest.mark.parametrize(
    ("text", "harmless", "parses"),
    [
        ("a: 12  # twelve\nb:\n  - true  # yes\n  - -3.5 # c\nc: null  # none\n", True, 0),
        ("title: see\n  - 12  # a text of several lines, cut\nb: 1\n", False, 1),  # ends "see - 12"
        ("title: x - 12  # the text is cut\n", False, 1),
        ("a: [1,\n  2]  # c\nb: 3  # c\n", False, 1),  # the flow comment is parsed again, and so is b's
        ("a: 12  # c\ntitle: x  # cut\n", False, 1),
        ("status: HTTP 200\nb:\n  - 200  # c\n", True, 1),  # a text ends with 200: parsed again
        ("status: HTTP 200\nb: 200  # c\n", True, 0),  # after a key: no text goes on past a `: `
        ("content: |\n  a: 12  # in the text\n", True, 0),
        ("a: 12  # c\r\nb:\r\n  - x\r\n  - 3  # d\r\ntitle: x  # cut\r\n", False, 1),  # lines ended by CR LF
        ("a: {b: 12  # }\n  }\n", False, 1),  # after a `{`: parsed again (the bracket closes elsewhere)
    ],
)
def test_examples(text: str, harmless: bool, parses: int) -> None:
    data = _parse(text)
    calls: list[str] = []

    def parse(marked: str) -> object:
        calls.append(marked)
        return _parse(marked)

    assert comments_harmless(text, data, parse) is harmless
    assert len(calls) == parses
