"""Redaction on import (``warroom import FORMAT --redact``): personal data and secrets in a drill's text replaced by
placeholders, consistently, before anything is written.

What is replaced (docs/importing.md, "Redaction", says what is not): e-mail addresses (``<email-N>``), API keys
and tokens (``<key-N>``: ``sk-...``, ``ghp_...``/``github_pat_...``, ``AKIA...``/``ASIA...``, ``xox?-...``, ``AIza...``,
JWTs, the token after ``Bearer``, the value of ``api_key=``/``"password": "..."``-like assignments), IP addresses v4
and v6 (``<ip-N>``, checked with :mod:`ipaddress`), phone numbers with separators or a leading ``+``
(``<phone-N>``) and the names given (``<name-N>``, whole words, any case). The same input always gets the same
placeholder in every text of every drill of one run (one :class:`Redactor`).
"""

from __future__ import annotations

import ipaddress
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: Kinds of redaction in the order the summary lists them, with their words.
KINDS = {"email": ("e-mail address", "e-mail addresses"), "key": ("API key or token", "API keys or tokens"),
         "ip": ("IP address", "IP addresses"), "phone": ("phone number", "phone numbers"), "name": ("name", "names")}

_KEY = (r"sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
        r"|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+")
_BEARER = r"(?i:\bbearer)\s+(?P<bearer>[A-Za-z0-9._~+/-]{8,}=*)"
_ASSIGNED = (r"(?i:\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd))[\"']?\s*[:=]\s*[\"']?"
             r"(?P<assigned>[^\s\"',;]{6,})")
_EMAIL = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
_IPV6 = r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{1,4})?(?![\w:]|\.\d)"
_IPV4 = r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)"
_PHONE = (r"(?<![\w+])(?<!\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]\d{3,5}"
          r"(?![\w]|[ .-]\d)"
          r"|(?<![\w+])\+\d{8,15}(?!\w)")
#: Keys whose values are ids and references, never redacted (a placeholder is not an id); everything under
#: ``_FREE`` keys (a tool call's arguments, a result's output) is redacted whatever its key.
_KEEP = frozenset({"id", "step", "call", "batch", "kind", "agent", "from_agent", "to_agent", "role", "status",
                   "level", "tool", "model", "name", "finish_reason", "tags", "origin_step", "evidence", "cascade",
                   "event", "unit"})
_FREE = frozenset({"arguments", "output"})


#: Largest file of names to redact read, in bytes.
MAX_NAMES_BYTES = 8 * 1024 * 1024


def read_names(path: Path) -> list[str]:
    """The names in the file at ``path``: one per line, UTF-8, blank lines and lines starting with ``#`` skipped.
    Raises OSError when it cannot be read, ValueError when it is not UTF-8 text."""
    from warroom.core.files import read_limited
    from warroom.core.text import shown_path

    try:
        text = read_limited(path, MAX_NAMES_BYTES).decode("utf-8-sig")  # the size checked before reading
    except UnicodeDecodeError as e:
        byte = e.object[e.start]
        raise ValueError(f"{shown_path(path)}: not UTF-8 text (byte 0x{byte:02x} at offset {e.start})") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def _names_pattern(names: list[str]) -> str:
    """One regular expression matching any of ``names`` (any case), as a trie: ``ann(?:a|e)?`` for ``ann``, ``anna``
    and ``anne``. An alternation of the names tried every name at every position of every text (20,000 names took
    3.2 s on 140 KB; the 8 MiB limit of names, 28 s and 855 MB); the trie follows only the names the text starts.
    Its optional parts are greedy, so the longest name that ends at a word's end is taken, as the alternation of
    names longest first did (:class:`Redactor` falls back to that alternation for names nested deeper than the
    regular expression engine can compile: thousands of names, each the one before and a letter)."""
    trie: dict[str, Any] = {}
    for name in names:
        node = trie
        for char in name.lower():
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        literal = ""
        while len(node) == 1 and "" not in node:  # a chain of one letter each: one literal, no recursion
            (char, node), = node.items()
            literal += re.escape(char)
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return literal
        body = "(?:" + "|".join(branches) + ")"
        return literal + (body + "?" if "" in node else body)

    return pattern(trie)


class Redactor:
    """Replaces personal data and secrets in text, the same input by the same placeholder (``<email-1>``).

    ``names``: extra words to replace (whole words, any case). Counts are per kind: :meth:`drill` stages a drill's
    replacements, :meth:`commit` adds them to :attr:`counts` once its file is written (:meth:`discard` drops them).
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = sorted({n.strip() for n in names if n.strip()}, key=lambda n: (-len(n), n))
        parts = [rf"(?P<key>{_KEY})", _BEARER, _ASSIGNED, rf"(?P<email>{_EMAIL})", rf"(?P<ip6>{_IPV6})",
                 rf"(?P<ip4>{_IPV4})", rf"(?P<phone>{_PHONE})"]
        self._pattern = re.compile("|".join(parts))
        if self.names:
            self._pattern = self._with_names(parts)
        self._placeholders: dict[tuple[str, str], str] = {}
        self._numbers: Counter[str] = Counter()
        self.counts: Counter[str] = Counter()
        self._pending: Counter[str] = Counter()

    def _with_names(self, parts: list[str]) -> re.Pattern[str]:
        """The pattern of ``parts`` and of :attr:`names` (a trie, :func:`_names_pattern`; their alternation where the
        trie nests deeper than the engine compiles)."""
        try:
            names = _names_pattern(self.names)
            return re.compile("|".join([*parts, rf"(?<!\w)(?P<name>(?i:{names}))(?!\w)"]))
        except (RecursionError, OverflowError, re.error):
            names = "|".join(re.escape(n) for n in self.names)
            return re.compile("|".join([*parts, rf"(?<!\w)(?P<name>(?i:{names}))(?!\w)"]))

    def _placeholder(self, kind: str, value: str) -> str:
        key = (kind, value.casefold() if kind in ("name", "email") else value)
        if key not in self._placeholders:
            self._numbers[kind] += 1
            self._placeholders[key] = f"<{kind}-{self._numbers[kind]}>"
        self._pending[kind] += 1
        return self._placeholders[key]

    def _replace(self, m: re.Match[str]) -> str:
        group = m.lastgroup
        text = m.group(0)
        if group in ("bearer", "assigned"):
            start, end = m.span(group)
            return text[: start - m.start()] + self._placeholder("key", m.group(group)) + text[end - m.start():]
        if group == "ip6" or group == "ip4":
            try:
                ipaddress.ip_address(text)
            except ValueError:
                return text
            if group == "ip6" and not any(c.isalnum() for c in text):
                return text
            return self._placeholder("ip", text)
        if group == "phone":
            digits = sum(c.isdigit() for c in text)
            if not (9 if text.startswith("+") else 10) <= digits <= 15:
                return text
        return self._placeholder(group or "key", text)

    def text(self, text: str) -> str:
        """``text`` with every match replaced by its placeholder."""
        return self._pattern.sub(self._replace, text)

    def data(self, value: Any, free: bool = False) -> Any:
        """A copy of drill data with every string redacted except ids and references (values of keys such as
        ``id``, ``step``, ``call``, ``agent``, ``tool``, ``model``, ``name``) outside a tool call's ``arguments`` and
        a result's ``output``, where every string is redacted (keys are kept)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {k: v if not free and k in _KEEP else self.data(v, free or k in _FREE) for k, v in value.items()}
        if isinstance(value, list):
            return [self.data(v, free) for v in value]
        return value

    def commit(self) -> None:
        """Count the replacements staged since the last commit or discard (a drill that was written)."""
        self.counts.update(self._pending)
        self._pending.clear()

    def discard(self) -> None:
        """Forget the replacements staged since the last commit (a drill that was not written)."""
        self._pending.clear()

    def summary(self) -> str:
        """One line: ``redacted 3 e-mail addresses, 1 IP address`` (replacements in the drills written), or
        ``redacted nothing``."""
        from warroom.core.text import plural

        parts = [plural(self.counts[k], one, many) for k, (one, many) in KINDS.items() if self.counts[k]]
        return "redacted " + (", ".join(parts) if parts else "nothing")
