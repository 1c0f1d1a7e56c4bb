"""What the drill picker shows of a drill, apart from the drill: a :class:`DrillCard`, small and plain enough to be
kept in the picker's cache (:mod:`warroom.core.library._cache`) as JSON and read back without loading the drill.

A card is never played: a drill is loaded from its file, in full, when it is opened (see
:meth:`warroom.tui.services.Services.open_entry`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from warroom.core.model import MAX_DRILL_SECONDS, MAX_VERSION

if TYPE_CHECKING:
    from warroom.core.model import Drill


_TEXT_FIELDS = ("id", "title", "author", "goal", "watching")
_FIELDS = frozenset({*_TEXT_FIELDS, "version", "difficulty", "public_tags", "duration", "plan"})


@dataclass(frozen=True)
class DrillCard:
    """The picker's view of one drill: its row (title, difficulty, domain tags, length) and its preview (id,
    revision, author, the briefing's goal and what the trainee watches, the plan's step ids and titles).

    ``duration`` is in seconds of drill time (the last trace event's time); ``plan`` holds ``(step id, title)``
    pairs in plan order; ``public_tags`` the tags a trainee may see before the debrief (``domain:`` tags, without
    the prefix).
    """

    id: str
    version: int
    title: str
    author: str
    difficulty: int
    public_tags: tuple[str, ...]
    duration: float
    goal: str
    watching: str
    plan: tuple[tuple[str, str], ...]

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
        return {
            "id": self.id,
            "version": self.version,
            "title": self.title,
            "author": self.author,
            "difficulty": self.difficulty,
            "public_tags": list(self.public_tags),
            "duration": self.duration,
            "goal": self.goal,
            "watching": self.watching,
            "plan": [list(step) for step in self.plan],
        }

    @classmethod
    def from_json(cls, data: object) -> DrillCard:
        """The card ``data`` holds (as :meth:`to_json` wrote it).

        Raises ValueError when ``data`` is anything else: not a dict of exactly those keys, a value of another type
        (a boolean for a number too), or a number no drill can have (a version outside 1 to ``MAX_VERSION``, a
        difficulty outside 1 to 5, a duration that is not a number of seconds from 0 to ``MAX_DRILL_SECONDS``): a
        hand-edited cache cannot make the picker draw a billion stars."""
        if not isinstance(data, dict) or set(data) != _FIELDS:
            raise ValueError("not a drill card")
        for name in _TEXT_FIELDS:
            if not isinstance(data[name], str):
                raise ValueError(f"drill card: {name} is not text")
        for name, top in (("version", MAX_VERSION), ("difficulty", 5)):
            if type(data[name]) is not int or not 1 <= data[name] <= top:
                raise ValueError(f"drill card: {name} is not an integer from 1 to {top}")
        duration = data["duration"]
        if type(duration) not in (int, float) or not math.isfinite(duration) or not 0 <= duration <= MAX_DRILL_SECONDS:
            raise ValueError("drill card: duration is not a number of seconds")
        tags, plan = data["public_tags"], data["plan"]
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise ValueError("drill card: public_tags is not a list of text")
        if not isinstance(plan, list) or not all(
            isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) for x in s) for s in plan
        ):
            raise ValueError("drill card: plan is not a list of (id, title) pairs")
        return cls(
            id=data["id"],
            version=data["version"],
            title=data["title"],
            author=data["author"],
            difficulty=data["difficulty"],
            public_tags=tuple(tags),
            duration=float(duration),
            goal=data["goal"],
            watching=data["watching"],
            plan=tuple((s[0], s[1]) for s in plan),
        )
