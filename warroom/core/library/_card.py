"""What the drill picker shows of a drill, apart from the drill: a :class:`DrillCard`, small and plain enough to be
kept in the picker's cache (:mod:`warroom.core.library._cache`) as JSON and read back without loading the drill.

A card is never played: a drill is loaded from its file, in full, when it is opened (see
:meth:`warroom.tui.services.Services.open_entry`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import ConfigDict, Field, Strict, TypeAdapter, with_config

from warroom.core.model import MAX_DRILL_SECONDS, MAX_VERSION

if TYPE_CHECKING:
    from warroom.core.model import Drill

#: Text as a card holds it: JSON text only (a number or a boolean in a cache file is refused, not converted).
Text = Annotated[str, Strict()]


@with_config(ConfigDict(extra="forbid"))
@dataclass(frozen=True)
class DrillCard:
    """The picker's view of one drill: its row (title, difficulty, domain tags, length) and its preview (id,
    revision, author, the briefing's goal and what the trainee watches, the plan's step ids and titles).

    ``duration`` is in seconds of drill time (the last trace event's time); ``plan`` holds ``(step id, title)``
    pairs in plan order; ``public_tags`` the tags a trainee may see before the debrief (``domain:`` tags, without
    the prefix).
    """

    id: Text
    version: Annotated[int, Strict(), Field(ge=1, le=MAX_VERSION)]
    title: Text
    author: Text
    difficulty: Annotated[int, Strict(), Field(ge=1, le=5)]
    public_tags: tuple[Text, ...]
    duration: Annotated[float, Strict(), Field(ge=0, le=MAX_DRILL_SECONDS, allow_inf_nan=False)]
    goal: Text
    watching: Text
    plan: tuple[tuple[Text, Text], ...]

    @classmethod
    def from_drill(cls, drill: Drill) -> DrillCard:
        """The card of a loaded, validated ``drill``."""
        return cls(
            id=drill.id,
            version=drill.version,
            title=drill.title,
            author=drill.author,
            difficulty=drill.difficulty,
            public_tags=tuple(drill.public_tags),
            duration=float(drill.duration),
            goal=drill.briefing.goal,
            watching=drill.briefing.watching,
            plan=tuple((step.id, step.title) for step in drill.plan),
        )

    def to_json(self) -> dict[str, Any]:
        """The card as JSON data (a dict of str, int, float and lists), which :meth:`from_json` reads back equal."""
        return dict(json_reader(DrillCard).dump_python(self, mode="json"))

    @classmethod
    def from_json(cls, data: object) -> DrillCard:
        """The card ``data`` holds (as :meth:`to_json` wrote it).

        Raises ValueError (pydantic's ValidationError, naming the field) when ``data`` is anything else: not a dict
        of exactly those keys, a value of another type (a boolean for a number too), or a number no drill can have
        (a version outside 1 to ``MAX_VERSION``, a difficulty outside 1 to 5, a duration that is not a number of
        seconds from 0 to ``MAX_DRILL_SECONDS``): a hand-edited cache cannot make the picker draw a billion stars."""
        return json_reader(DrillCard).validate_python(data)


_T = TypeVar("_T")
#: The validator of each record type, built on first use (a few milliseconds): by class.
_READERS: dict[type[Any], TypeAdapter[Any]] = {}


def json_reader(cls: type[_T]) -> TypeAdapter[_T]:
    """The validator and writer of the cache's records of ``cls`` (a card, a cached file)."""
    if cls not in _READERS:
        _READERS[cls] = TypeAdapter(cls)
    return _READERS[cls]
