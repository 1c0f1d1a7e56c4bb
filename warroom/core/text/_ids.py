"""Ids in problem messages: shown so that what is invisible or looks alike can be seen, and suggested cheaply.

- :func:`shown_id` quotes an id (or a key) for a message: characters outside printable ASCII are escaped
  (``\\u0430``) and named, a letter by its script ("Cyrillic а U+0430"), an invisible character by its Unicode
  name ("zero width space U+200B"), so that ``s1`` and ``s1`` followed by a zero-width space, or a Latin ``a``
  and a Cyrillic ``а``, never look the same.
- :class:`Suggester` finds the likely typos of a missing id among the ids that exist, with bounded work: the ids
  are indexed by length once, each suggestion examines at most :data:`MAX_CANDIDATES` of them, and one suggester
  gives at most :data:`MAX_SUGGESTIONS` suggestions (later references get none), so a drill with thousands of
  references to missing ids validates in linear time.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from warroom.core.text._words import natural_key

#: Most "did you mean" suggestions one :class:`Suggester` gives (one kind of reference: plan steps, events...).
MAX_SUGGESTIONS = 20
#: Most existing ids one suggestion compares the missing id with (those of the nearest lengths first).
MAX_CANDIDATES = 200
#: Characters of an id or key shown in a message (a longer one is cut, with "...").
MAX_SHOWN = 80
#: Longest id or key a suggestion is looked for (longer words are not typos of an id).
MAX_SUGGEST_LENGTH = 100


def _char_name(ch: str) -> str:
    """``Cyrillic а U+0430`` for a visible letter of another script, ``zero width space U+200B`` for an invisible
    or formatting character, ``U+XXXX`` when Unicode has no name for it."""
    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    if not name:
        return code
    visible = unicodedata.category(ch)[0] in "LNPS" and not ch.isspace()
    match = re.match(r"(.*?) (?:(?:SMALL|CAPITAL) )?(?:LETTER|DIGIT) ", name + " ")
    if visible and match and match.group(1):
        script = " ".join(w.capitalize() for w in match.group(1).split())
        return f"{script} {ch} {code}"
    if visible:
        return f"{name.lower()} {ch} {code}"
    return f"{name.lower()} {code}"


def shown_id(text: Any) -> str:
    """``text`` in backquotes for a problem message, every character outside printable ASCII escaped.

    Plain ASCII ids come back as ```s1```. Otherwise the escaped form is followed by what the characters are:
    ```s\\u0430` (Cyrillic а U+0430)``, ```s1\\u200b` (zero width space U+200B)``. At most three different
    characters are named, and the first :data:`MAX_SHOWN` characters shown (then ``...``). Never raises; a
    non-text value is shown with ``repr``.
    """
    if not isinstance(text, str):
        return f"`{text!r}`"
    cut = "..." if len(text) > MAX_SHOWN else ""
    text = text[:MAX_SHOWN]
    if text.isascii() and text.isprintable():
        return f"`{text}{cut}`"
    escaped = "".join(
        ch if " " <= ch <= "~" else (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else
                                     f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
        for ch in text
    )
    odd = list(dict.fromkeys(ch for ch in text if not (" " <= ch <= "~")))
    names = [_char_name(ch) for ch in odd[:3]]
    more = f" and {len(odd) - 3} more" if len(odd) > 3 else ""
    return f"`{escaped}{cut}` ({', '.join(names)}{more})"


#: The similarity (difflib's ratio) from which a choice counts as a typo of a word: one character added or dropped
#: in a short id.
SUGGEST_CUTOFF = 0.8


def likely_typo(word: str, choice: str) -> bool:
    """True when ``choice`` is what ``word`` would be with one slip of the keyboard: one character changed, two
    neighbours swapped, or a difflib similarity of at least :data:`SUGGEST_CUTOFF` (one character added or dropped
    in a short id)."""
    if len(word) == len(choice):
        diff = [i for i, (a, b) in enumerate(zip(word, choice, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        if len(diff) == 2 and diff[1] == diff[0] + 1:
            i, j = diff
            return word[i] == choice[j] and word[j] == choice[i]
    if 2 * min(len(word), len(choice)) < SUGGEST_CUTOFF * (len(word) + len(choice)):  # real_quick_ratio, inline
        return False
    matcher = difflib.SequenceMatcher(None, word, choice, autojunk=False)
    return matcher.quick_ratio() >= SUGGEST_CUTOFF and matcher.ratio() >= SUGGEST_CUTOFF


def _length_range(n: int) -> range:
    """Lengths of the ids that can be a :func:`likely_typo` of an ``n``-character word (similarity 0.8 needs
    ``2 * min / (n + m) >= 0.8``)."""
    return range(max(1, -(-2 * n // 3)), n * 3 // 2 + 2)


class Suggester:
    """Did-you-mean hints for references to ids that do not exist, among ``ids`` (indexed once, by length).

    Call it with a missing id: it returns `` (did you mean `e04`?)`` when exactly one id is a likely typo
    (:func:`likely_typo`); when several are (``e05`` among ``e04``, ``e06``, ``e15``), the two next to it in
    natural order, `` (nearby ids: `e04`, `e06`)``; else (none, or ``word`` sorts past them all) ``""``: an
    unrelated id is never offered. After :data:`MAX_SUGGESTIONS` calls it returns ``""`` at once.
    """

    def __init__(self, ids: Iterable[str], budget: int = MAX_SUGGESTIONS) -> None:
        self._ids = ids
        self._by_length: dict[int, list[str]] | None = None
        self.budget = budget

    def _index(self) -> dict[int, list[str]]:
        if self._by_length is None:
            self._by_length = {}
            for i in dict.fromkeys(self._ids):
                self._by_length.setdefault(len(i), []).append(i)
        return self._by_length

    def typos(self, word: str) -> list[str]:
        """The likely typos of ``word`` among the ids, in natural order (at most :data:`MAX_CANDIDATES` ids are
        compared, those of ``word``'s own length first)."""
        if not isinstance(word, str) or len(word) > MAX_SUGGEST_LENGTH:
            return []
        index = self._index()
        lengths = sorted(_length_range(len(word)), key=lambda m: abs(m - len(word)))
        found: list[str] = []
        left = MAX_CANDIDATES
        for m in lengths:
            for choice in index.get(m, ())[:left]:
                if choice != word and likely_typo(word, choice):
                    found.append(choice)
            left -= len(index.get(m, ()))
            if left <= 0:
                break
        return sorted(found, key=natural_key)

    def __call__(self, word: str) -> str:
        if self.budget <= 0:
            return ""
        self.budget -= 1
        typos = self.typos(word)
        if not typos:
            return ""
        if len(typos) == 1:
            return f" (did you mean {shown_id(typos[0])}?)"
        key = natural_key(word)
        before = [c for c in typos if natural_key(c) < key]
        after = [c for c in typos if natural_key(c) > key]
        if not (before and after):  # past either end (`s9` after `s2`): nothing is near enough to name
            return ""
        return f" (nearby ids: {shown_id(before[-1])}, {shown_id(after[0])})"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """The one did-you-mean policy of warroom (drill references, drill ids on the command line...): a hint for
    ``word`` among ``choices``, `` (did you mean `x`?)`` or `` (nearby ids: `a`, `b`)``, else ``""``.

    A choice is offered only when it is one slip of the keyboard away (:func:`likely_typo`: one character changed,
    two swapped, or a similarity of at least :data:`SUGGEST_CUTOFF`); an unrelated id is never offered."""
    return Suggester(choices, budget=1)(word)


#: How alike a misspelt vocabulary word must be to a choice to be offered (difflib ratio; looser than for ids).
VOCABULARY_CUTOFF = 0.6


def vocabulary_hint(word: Any, choices: list[str]) -> str:
    """The did-you-mean hint for a word of the drill format's vocabulary (a key, an event or fault kind, a value
    of a fixed set): ``"did you mean `x`? "`` (a prefix for the list of allowed words that follows it) or ``""``.

    The choices are a few known words, so the closest one at a difflib similarity of at least
    :data:`VOCABULARY_CUTOFF` is offered (``rate_limited`` -> ``rate_limit_swallowed``); ids the author made up
    go through :func:`did_you_mean`'s stricter one-slip rule instead. Not a string, or longer than 200
    characters: ``""`` (bounded work per problem)."""
    if not isinstance(word, str) or len(word) > 200:
        return ""
    match = difflib.get_close_matches(word, choices, n=1, cutoff=VOCABULARY_CUTOFF)
    return f"did you mean `{match[0]}`? " if match else ""


def id_list(ids: Iterable[str], limit: int = 20) -> str:
    """``s1, s2, s3`` for a message, at most ``limit`` ids then ``... (N in all)``."""
    ids = list(ids)
    shown = ", ".join(ids[:limit])
    return shown if len(ids) <= limit else f"{shown}, ... ({len(ids)} in all)"
