"""``hashes_after_text`` (warroom.core.load._fast.comments) finds exactly what ``HASH_AFTER_TEXT.finditer`` finds."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.core.library import bundled_drills_dir
from warroom.core.load._fast.comments import hashes_after_text

#: A `` #`` after text on its line: the expression ``hashes_after_text`` matches without the regex engine.
HASH_AFTER_TEXT = re.compile(r"(?<=\S) +#")

#: Spaces, hashes, line ends and other whitespace (tab, no-break space, ideographic space), and text.
ALPHABET = st.sampled_from(list("  #\n\r\t\u00a0\u3000ab:'\""))


def _regex(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in HASH_AFTER_TEXT.finditer(text)]


@settings(max_examples=500, deadline=None)
@given(st.text(ALPHABET, max_size=60))
def test_same_matches_as_the_expression(text: str) -> None:
    assert list(hashes_after_text(text)) == _regex(text)


def test_examples() -> None:
    text = "a: 1  # one\n  # a comment line\nb: x #y #z\n\u00a0 #no\n #start\n"
    assert list(hashes_after_text(text)) == _regex(text) == [(4, 7), (35, 37), (38, 40)]
    assert list(hashes_after_text("")) == [] and list(hashes_after_text(" #")) == []


def test_same_matches_on_every_bundled_drill() -> None:
    found = 0
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert list(hashes_after_text(text)) == _regex(text), path.name
        found += len(_regex(text))
    assert found  # some bundled drills have comments after values, so the comparison is not vacuous
