"""The fast load path's look at the text itself (:mod:`warroom.core.load._fast.load`): whether a drill file holds
anything
the fast path leaves to the position-tracking path (unusual characters and lines, anchors, aliases, tags, ``?`` and
merge keys, a ``[...]`` or ``{...}`` that may span lines). See the fastload module docstring for the list."""

from __future__ import annotations

import re
from itertools import compress

from warroom.core.text import SURROGATE_ESCAPE

#: Printable ASCII and line feeds: the bytes of an ordinary drill (anything else is looked at more closely).
_ASCII_OK = bytes(range(0x20, 0x7F)) + b"\n\r"
_ASCII_BYTE = re.compile(rb"[\x00-\x7f]")
#: Characters outside ASCII the fast path leaves to the PyYAML path: C1 controls (U+0085 among them), U+2028,
#: U+2029, a byte-order mark inside the text, surrogates and non-characters.
_ODD_CHARACTER = re.compile("[\x80-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
#: Lines the fast path leaves to the PyYAML path: directives, document markers, a lone CR.
_ODD_LINE = re.compile(r"\n(?:%|---|\.\.\.)")
_LONE_CR = re.compile(r"\r(?!\n)")
#: Anchors, aliases, tags, ``?`` keys, merge keys, and ``{"key":value}`` (a value right after the colon): each
#: pattern starts with a literal (fast to find); a match counts only at the start of the text, or after a space or
#: ``[{,`` (see :func:`unusual`).
_ODD_TOKENS = [
    ("&", re.compile(r"&[^\s,\[\]{}]")),
    ("*", re.compile(r"\*[^\s,\[\]{}]")),
    ("!", re.compile(r"![^\s,\[\]{}]")),
    ("?", re.compile(r"\?(?:\s|\Z)")),
    ("<<", re.compile(r"<<")),
]
_QUOTED_KEY_COLON = re.compile(r"[\"']:\S")
#: ``{...}`` or ``[...]`` on one line with no bracket inside, not even quoted: closed where it opens. Its quotes
#: must pair up on the line (a quoted ``"}"`` is not a closing bracket).
_FLAT_INSIDE = r"""(?:[^\n\[\]{}"'\\]|"[^"\n\[\]{}\\]*"|'[^'\n\[\]{}]*')*"""
_FLAT_PAIR = re.compile(r"\{" + _FLAT_INSIDE + r"\}|\[" + _FLAT_INSIDE + r"\]")
_BRACKET = re.compile(r"[\[\]{}]")
#: A quoted text on one line, starting where a YAML token starts (an apostrophe inside a word starts none).
_QUOTED = re.compile(r"""(?:(?<=[\s\[{,:])|^)(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*')""")


def unusual(text: str) -> bool:
    """True when ``text`` holds anything the fast path leaves to the PyYAML path (see the module docstring)."""
    raw = text.encode("utf-8", "surrogatepass")
    rest = raw.translate(None, _ASCII_OK)
    # what is left: control characters (a tab...) and the bytes of characters outside ASCII
    if rest and (_ASCII_BYTE.search(rest) or _ODD_CHARACTER.search(rest.decode("utf-8", "surrogatepass"))):
        return True
    if text.startswith(("%", "---", "...")) or _ODD_LINE.search(text) or ("\r" in text and _LONE_CR.search(text)):
        return True
    if ('":' in text or "':" in text) and _QUOTED_KEY_COLON.search(text):
        return True
    if "\\u" in text and SURROGATE_ESCAPE.search(text):
        return True
    if any(c in text for c in "[]{}") and multiline_flow_quick(text, raw):
        return True
    del raw
    for mark, pattern in _ODD_TOKENS:
        if mark not in text:
            continue
        for match in pattern.finditer(text):
            start = match.start()
            if start > 0 and text[start - 1] not in " \n\r[{,":
                continue
            line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
            if not text[line_start:start].lstrip(" ").startswith("#"):  # a comment line may say anything
                return True
    return False


#: Every byte but brackets, quotes, backslashes and line feeds: deleted, they leave each line's flow skeleton (a
#: character outside ASCII is encoded in bytes 0x80 and above, none of which is kept).
_NOT_FLOW = bytes(b for b in range(256) if b not in b"[]{}\"'\\\n")


def multiline_flow_quick(text: str, raw: bytes) -> bool:
    """:func:`multiline_flow` of ``text`` (``raw``: its UTF-8 bytes), looking closely only at lines with brackets
    and quotes.

    The lines are reduced to their brackets, quotes and line feeds at once (``bytes.translate``); a drill has only a
    few distinct such skeletons, each looked at once. A line without quotes has a ``[...]`` or ``{...}`` spanning
    lines exactly when it opens more brackets of a kind than it closes, or closes more than it opens (taking out the
    pairs closed on the line leaves that difference), which its skeleton tells. A line with quotes whose brackets
    are all in pairs closed on the line (its skeleton, backslashes kept, tells: :func:`_closed_in_place`) is fine;
    the other lines with brackets and quotes get :func:`multiline_flow`, together (the rule looks at one line at a
    time, so the verdict is the same as on the whole text).
    """
    skeletons = raw.translate(None, _NOT_FLOW).split(b"\n")
    close_look: set[bytes] = set()
    for line in set(skeletons):
        if b'"' in line or b"'" in line:
            if (b"[" in line or b"]" in line or b"{" in line or b"}" in line) and not _closed_in_place(line):
                close_look.add(line)
        elif line.count(b"{") != line.count(b"}") or line.count(b"[") != line.count(b"]"):
            return True
    if not close_look:
        return False
    return multiline_flow("\n".join(compress(text.split("\n"), map(close_look.__contains__, skeletons))))


def _closed_in_place(skeleton: bytes) -> bool:
    """True when every bracket of the lines with this ``skeleton`` is in a ``[...]`` or ``{...}`` closed on the line,
    as :func:`multiline_flow` takes them out: those lines need no closer look. Their other characters are plain text
    to :data:`_FLAT_PAIR` wherever they stand (outside or inside quotes), so the skeleton decides alike."""
    rest = skeleton.decode("ascii")
    for _ in range(8):
        rest, found = _FLAT_PAIR.subn("", rest)
        if not found:
            break
    return _BRACKET.search(rest) is None


def multiline_flow(text: str) -> bool:
    """True when a ``[...]`` or ``{...}`` may span lines (yaml-rs does not check how its lines are indented, PyYAML
    does): with the pairs closed on their own line taken out, a line opens or closes more than it closes or opens
    (brackets in quoted texts do not count)."""
    if not any(c in text for c in "[]{}"):
        return False
    rest = "\n" + text
    match = None
    for _ in range(8):  # pairs nested on one line, innermost first, until no bracket is left or none goes
        rest, found = _FLAT_PAIR.subn("", rest)
        match = _BRACKET.search(rest)
        if not found or match is None:
            break
    if match is None:
        return False
    while match is not None:
        start, end = rest.rfind("\n", 0, match.start()) + 1, rest.find("\n", match.end())
        end = len(rest) if end < 0 else end
        line = rest[start:end]
        match = _BRACKET.search(rest, end)
        if "'" in line or '"' in line:
            line = _QUOTED.sub("", line)
        if line.count("{") != line.count("}") or line.count("[") != line.count("]"):
            return True
    return False
