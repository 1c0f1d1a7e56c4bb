"""The fast load path's token scan (warroom.core.load._fast.load._tokens) finds exactly what its plain reading finds.

``_tokens`` runs one expression per indicator (:data:`warroom.core.load._fast.load._TOKENS`), for speed; the plain
reading
below is the pattern as the rule says it (a token after a newline or flow indicator, or after ``:``, ``?`` or ``-``
followed by a space), one expression over the whole text. ``ONE_CLASS`` is the same rule written to start with one
character class (the scan of the previous rounds): it must agree too.
"""

from __future__ import annotations

import re
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.core.library import bundled_drills_dir
from warroom.core.load._fast import load as fastload
from warroom.core.load._fast.load import _TOKENS, _tokens

PLAIN = re.compile(r"(?:[\n\[{,]|[:?-](?= )) *+([-+.0-9~<=yYnNoOtTfF][^\s,\[\]{}]*) *+(?=[\n\r#,\]}]|\Z)")
ONE_CLASS = re.compile(
    r"[\n\[{,:?-](?:(?<=[:?-])(?= )|(?<![:?-])) *+([-+.0-9~<=yYnNoOtTfF][^\s,\[\]{}]*) *+(?=[\n\r#,\]}]|\Z)"
)

#: Characters the pattern cares about, and a few it does not, so that random texts hit every branch.
ALPHABET = st.sampled_from(list("\n\r[]{},:?-# +.0123456789~<=yYnNoOtTfFax\t"))


def _per_expression(text: str) -> list[str]:
    """Every token the expressions of ``_TOKENS`` find in ``text``, sorted (a token found twice is listed twice)."""
    return sorted(token for pattern in _TOKENS for token in pattern.findall(text))


@settings(max_examples=400, deadline=None)
@given(st.text(ALPHABET, max_size=80))
def test_same_tokens_as_the_plain_pattern(text: str) -> None:
    assert _per_expression(text) == sorted(PLAIN.findall(text)) == sorted(ONE_CLASS.findall(text))
    assert _tokens(text) == set(PLAIN.findall("\n" + text))


def test_same_tokens_on_every_bundled_drill() -> None:
    paths = sorted(bundled_drills_dir().glob("*.yaml"))
    assert paths
    for path in paths:
        text = "\n" + path.read_text(encoding="utf-8")
        found = _per_expression(text)
        assert found == sorted(PLAIN.findall(text)), path.name
        assert found, path.name  # every drill has numbers (times), so the comparison is not vacuous


def test_examples() -> None:
    text = "t: 12\nkey: -1.5e3 # c\nx: [0o17, ~]\n- yes\nid: e1\n12:\n"
    assert _tokens(text) == {"12", "-1.5e3", "0o17", "~", "yes", "12:"}
    assert _tokens("") == set() and _tokens("0x1") == {"0x1"}


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=80), st.integers(1, 9))
def test_chunked_scan_finds_what_one_scan_finds(text: str, chunk: int) -> None:
    """``_tokens`` scans a chunk of lines at a time: its tokens are those of one scan, wherever the chunks end."""
    with patch.object(fastload, "_CHUNK", chunk):
        assert fastload._tokens(text) == set(PLAIN.findall("\n" + text))


def test_chunked_scan_on_a_bundled_drill_in_small_chunks() -> None:
    text = (bundled_drills_dir() / sorted(p.name for p in bundled_drills_dir().glob("*.yaml"))[0]).read_text("utf-8")
    text = text.replace("\n", "\r\n")
    with patch.object(fastload, "_CHUNK", 97):
        chunked = fastload._tokens(text)
    assert chunked == set(PLAIN.findall("\n" + text)) and len(chunked) > 5
