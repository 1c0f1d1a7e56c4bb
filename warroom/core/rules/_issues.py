"""What the semantic rules report: an :class:`Issue` (a broken rule, at the value at fault) or a :class:`Blocked`
rule (one that could not run because a value it needs did not load), collected by :class:`Findings` over one run
of the rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from warroom.core.text import shown_id

#: The location path of a value in a drill: keys and 0-based list indexes, as in pydantic's errors
#: (``("trace", 3, "step")``).
Loc = tuple[str | int, ...]
#: An id as the rules quote it in a message.
q = shown_id


@dataclass(frozen=True)
class Issue:
    """One broken rule: ``loc`` is the path of the value at fault, ``message`` says what is wrong and how to fix it.

    ``related`` optionally names a second value the message refers to (the first of two duplicate ids, the
    previous event of one out of order); the loader adds its line number to the message.
    """

    loc: Loc
    message: str
    related: Loc | None = None


@dataclass(frozen=True)
class Blocked:
    """A rule that could not run: ``rule`` names it, ``loc`` is a value it needs that did not load (it has a type
    problem of its own, reported separately)."""

    rule: str
    loc: Loc


@dataclass
class Findings:
    """What one run of the rules found: its ``issues`` in the order the rules are checked, and the rules it could
    not run (``blocked``: rule to the first value it waited for)."""

    issues: list[Issue] = field(default_factory=list)
    blocked: dict[str, Loc] = field(default_factory=dict)

    def add(self, loc: Loc, msg: str, related: Loc | None = None) -> None:
        """Report a broken rule at ``loc`` (and ``related``, the value the message refers to)."""
        self.issues.append(Issue(tuple(loc), msg, tuple(related) if related is not None else None))

    def block(self, rule: str, loc: Loc) -> None:
        """Note that ``rule`` could not run: it needs the value at ``loc``, which did not load."""
        self.blocked.setdefault(rule, loc)
