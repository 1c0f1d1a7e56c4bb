"""One policy each for the words every command and screen writes: counts with their nouns, and natural order.

- :func:`plural`: ``1 drill``, ``3 drills``, ``0 problems`` (and irregular nouns given by the caller).
- :func:`natural_key`: the sort key for ids, file names and paths, runs of digits by value (``ww-2`` before
  ``ww-10``), case-insensitive, never raising for any text.

The did-you-mean policy lives beside the ids it suggests: :func:`warroom.core.text.did_you_mean`.
"""

from __future__ import annotations

import re

#: What :func:`natural_key` returns: the text's parts (``(0, number)`` for a run of digits, ``(1, text)`` for the
#: rest, casefolded), then the text itself to order texts that differ only in case or leading zeros.
NaturalKey = tuple[tuple[tuple[int, int | str], ...], str]

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> NaturalKey:
    """A sort key that orders runs of digits by value: ``ww-2`` < ``ww-10`` < ``WW-11``; ``s2`` < ``s2a``.

    Letters compare without case (then by the text itself, so ``S1`` and ``s1`` still have one order). Any text is
    accepted (Unicode digits such as ``٣`` count by value; a superscript ``²`` is text, not a number). Never raises.
    """
    pieces = _DIGITS.split(text.casefold())
    # re.split with one group: the digit runs are exactly the odd pieces, whatever str.isdigit says of the rest.
    parts = tuple((0, int(p)) if i % 2 else (1, p) for i, p in enumerate(pieces) if p)
    return parts, text


def plural(n: int, word: str, many: str | None = None, *, count: bool = True) -> str:
    """``n`` and ``word`` in the number it takes: ``1 drill``, ``0 drills``, ``2 drills``.

    ``many`` is the plural when it is not ``word + "s"`` (``plural(2, "was", "were")``). With ``count`` False only
    the word is returned (``turn`` / ``turns``), for sentences that put the number elsewhere. Numbers are written
    with thousands separators (``1,200 events``).
    """
    form = word if n == 1 else (many if many is not None else f"{word}s")
    return f"{n:,} {form}" if count else form
