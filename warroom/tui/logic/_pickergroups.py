"""The drill picker's grouping: the library by domain, with the tutorial first for a new trainee.

A drill's group is its first ``domain:`` tag (the first of :attr:`~warroom.core.model.Drill.public_tags`),
normalized so that spellings of one domain make one group (``code-agent`` and ``code-agents``, ``Finance ops`` and
``finance-ops``): :func:`domain_key`. Groups are in alphabetical order of their key, each drill in the order it was
given (the catalog's: bundled first, then ``--drills`` folders, in natural order of file name); drills with no
domain tag come after them under ``other``, and files that did not load last, under ``cannot load``. The bundled
tutorial is a group of its own: first (``start here``) for a trainee who has not finished a drill yet, else last of
the loaded drills (``tutorial``). These four groups are :attr:`Group.reserved` (the picker shows their label in
italics, a domain's in bold) and no domain tag can name one: a domain that reads as one of them (``domain:other``,
``domain:Cannot load``) is labelled with its tag's prefix, ``domain:other``. No Textual here.

The picker's ``/`` filter keeps the drills whose title, id, domain or tags hold every word typed
(:func:`filter_entries`); ``s`` sorts them by level or by best score instead of by domain (:func:`sort_entries`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warroom.tui.logic._entries import DrillEntry


#: Group labels of the drills outside any domain.
START_HERE = "start here"
TUTORIAL = "tutorial"
OTHER = "other"
BROKEN = "cannot load"

_SEPARATORS = re.compile(r"[\s_\-/]+")

#: The prefix a domain group's label gets when the domain reads as a reserved group's label.
_TAGGED = "domain:"


@dataclass(frozen=True)
class Group:
    """One group of the picker: its ``label`` (shown) and its ``entries``, in order."""

    label: str
    entries: tuple[DrillEntry, ...]
    reserved: bool = False  # one of warroom's own groups (start here, tutorial, other, cannot load), not a domain


def domain_key(domain: str) -> str:
    """The grouping key of a domain tag's text: lower case, words joined by ``-``, the last word without a plural
    ``s`` (``Code agents`` -> ``code-agent``; ``access`` and short words such as ``ops`` are kept)."""
    words = [w for w in _SEPARATORS.split(domain.strip().lower()) if w]
    if not words:
        return ""
    last = words[-1]
    if len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is")):
        words[-1] = last[:-1]
    return "-".join(words)


#: The grouping keys of the reserved groups' labels.
_RESERVED_KEYS = frozenset(domain_key(label) for label in (START_HERE, TUTORIAL, OTHER, BROKEN))


def domain_label(domain: str) -> str:
    """The label of the group of the domain tag text ``domain``: the text itself, unless it reads as one of the
    reserved groups' labels or as such a label already prefixed (``other``, ``Cannot-load``, ``domain:other``): then
    with the tag's ``domain:`` prefix, so that a drill tagged ``domain:other`` never joins, nor looks like, the
    drills without a domain."""
    key = domain_key(domain)
    while key.startswith(_TAGGED):
        key = key[len(_TAGGED):]
    return f"{_TAGGED}{domain}" if key in _RESERVED_KEYS else domain


def domain_of(entry: DrillEntry) -> str | None:
    """The text of ``entry``'s first domain tag (``domain:`` stripped), or None (no domain tag, or not loaded)."""
    if entry.card is None:
        return None
    tags = entry.card.public_tags
    return tags[0] if tags and domain_key(tags[0]) else None


def new_trainee(best: dict[str, int | None]) -> bool:
    """True for a trainee who has not finished a drill yet (no stored session, or only quit ones): ``best`` is
    :meth:`~warroom.tui.logic.Services.best_scores` (None: a drill only ever quit)."""
    return all(score is None for score in best.values())


def group_entries(
    entries: Iterable[DrillEntry], *, tutorial_first: bool, is_tutorial: Callable[[DrillEntry], bool]
) -> list[Group]:
    """``entries`` grouped by domain (see the module docstring); ``is_tutorial`` tells the tutorial's entry."""
    by_key: dict[str, list[DrillEntry]] = {}
    spellings: dict[str, Counter[str]] = {}
    tutorial: list[DrillEntry] = []
    other: list[DrillEntry] = []
    broken: list[DrillEntry] = []
    for entry in entries:
        if entry.card is None:
            broken.append(entry)
        elif is_tutorial(entry):
            tutorial.append(entry)
        else:
            domain = domain_of(entry)
            if domain is None:
                other.append(entry)
                continue
            key = domain_key(domain)
            by_key.setdefault(key, []).append(entry)
            spellings.setdefault(key, Counter())[domain] += 1
    groups = [Group(domain_label(_label(spellings[key])), tuple(by_key[key])) for key in sorted(by_key)]
    if other:
        groups.append(Group(OTHER, tuple(other), reserved=True))
    if tutorial:
        if tutorial_first:
            groups.insert(0, Group(START_HERE, tuple(tutorial), reserved=True))
        else:
            groups.append(Group(TUTORIAL, tuple(tutorial), reserved=True))
    if broken:
        groups.append(Group(BROKEN, tuple(broken), reserved=True))
    return groups


def _label(spellings: Counter[str]) -> str:
    """The label of a group: the spelling most of its drills use (the first seen among equals)."""
    return spellings.most_common(1)[0][0]


#: The picker's orders (``s`` goes to the next): grouped by domain (the default), by level (difficulty, easiest
#: first), by best score (the drills to practise first: never played, then only quit, then from the lowest score up).
SORTS: dict[str, str] = {"domain": "by domain", "level": "by level", "best": "by best score"}


def _words_of(entry: DrillEntry) -> str:
    """What the filter searches in one drill: its title, id, domain and other public tags (a drill that did not
    load: its file name), case-folded."""
    card = entry.card
    if card is None:
        return entry.path.name.casefold()
    return " ".join([card.title, card.id, *card.public_tags]).casefold()


def filter_entries(entries: Iterable[DrillEntry], text: str) -> list[DrillEntry]:
    """The entries whose title, id, domain or tags hold every word of ``text`` (case ignored); all of them for an
    empty ``text``."""
    words = text.casefold().split()
    return [e for e in entries if all(w in _words_of(e) for w in words)]


def sort_entries(entries: Iterable[DrillEntry], sort: str, best: dict[str, int | None]) -> list[DrillEntry]:
    """``entries`` in the order ``sort`` names (a key of :data:`SORTS`; ``domain``: as given); drills that did not
    load last. ``best``: the trainee's best scores by drill id. Ties are broken the same way every time, whatever
    order the drills were read in: by level, by best score, then by domain, title and id (easiest first among
    equal scores, one domain's drills together among equal levels)."""
    loaded = [e for e in entries if e.card is not None]
    broken = [e for e in entries if e.card is None]
    if sort == "domain":
        return [*loaded, *broken]

    def key(entry: DrillEntry) -> tuple[int, int, int, str, str, str]:
        card = entry.card
        assert card is not None
        rest = (domain_key(domain_of(entry) or "~"), card.title.casefold(), card.id)  # no domain: after the others
        if sort == "level":
            return (card.difficulty, 0, 0, *rest)
        if card.id not in best:
            return (0, 0, card.difficulty, *rest)  # never played: first
        score = best[card.id]
        return (1, -1, card.difficulty, *rest) if score is None else (2, score, card.difficulty, *rest)

    return sorted(loaded, key=key) + sorted(broken, key=lambda e: (e.path.name.casefold(), str(e.path)))
