"""Which later tool calls of a projected drill do the damage: rules of ``warroom project --damage
PATTERN=AMOUNT[:UNIT]`` (a glob on tool names, an amount per call, the drill's damage unit), or, when none is
given, the write-like tool names (:data:`WRITE_VERBS`), each call one unit of :data:`DEFAULT_UNIT`.

A tool name matches a pattern (case-insensitive glob) as written, by its last segment (after ``.``, ``/`` or
``:``: ``crm.update_ticket``) or by that segment without a namespace word in front (``erp_close_month``). A tool
whose last segment starts with a reading verb (``get``, ``list``, ``search``, ...) is never write-like by default.
"""

from __future__ import annotations

import fnmatch
import math
import re
from dataclasses import dataclass

from warroom.core.projection._problems import ProjectionError
from warroom.core.text import damage_shown_otherwise, exact_figure, visible_name

#: The verbs of tool names that change something: the default consequential calls (``cancel*``, ``modify*``, ...).
WRITE_VERBS = (
    "cancel", "modify", "update", "return", "exchange", "transfer", "refund", "send", "delete", "remove", "create",
    "write", "post", "pay", "charge", "book", "submit", "approve", "merge", "deploy", "publish", "insert", "issue",
    "grant", "revoke", "close", "reset", "apply", "place", "upsert", "patch", "put", "move", "rename", "drop",
    "archive", "disable", "enable", "assign", "set_", "settle", "wire", "release", "rebook", "reschedule",
    "unlock", "lock", "suspend", "activate", "deactivate", "notify", "invite", "provision", "deprovision", "terminate",
    "restart", "scale", "rollback", "revert", "import", "sync", "upload", "share", "sign", "void", "credit", "debit",
)
#: The verbs of tool names that only read: such a tool is never write-like by default (``get_return_policy``).
READ_VERBS = frozenset({
    "get", "list", "find", "search", "fetch", "read", "lookup", "look", "query", "describe", "check", "calculate",
    "think", "view", "show", "count", "retrieve", "browse", "inspect", "validate", "preview", "estimate", "verify",
})
#: The damage unit when no ``--damage`` rule names one.
DEFAULT_UNIT = "consequential calls made on the bad result"
#: The largest damage amount per call (the drill format's limit).
MAX_AMOUNT = 1e12
_SEGMENT = re.compile(r"[./:]")
_WORD = re.compile(r"[_\-\s]+|(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True)
class DamageRule:
    """Calls of tools matching ``pattern`` do ``amount`` of damage each, in ``unit``."""

    pattern: str
    amount: float
    unit: str
    #: The default rule: every write-like tool (:func:`is_write_like`), whatever ``pattern`` says.
    write_like: bool = False

    def matches(self, tool: str) -> bool:
        """Whether the tool name ``tool`` matches this rule (see the module docstring)."""
        if self.write_like:
            return is_write_like(tool)
        pattern = self.pattern.lower()
        return any(fnmatch.fnmatchcase(name, pattern) for name in _names(tool))


def _names(tool: str) -> list[str]:
    """The forms of a tool name a pattern is matched against: whole, its last segment, and that segment without a
    namespace word in front (``erp_close_month``: ``close_month``), all in lower case."""
    last = _SEGMENT.split(tool)[-1]
    words = [w for w in _WORD.split(last) if w]
    names = [tool.lower(), last.lower()]
    if len(words) > 1 and words[0].lower() not in READ_VERBS:
        names.append(last.strip()[len(words[0]):].lstrip("_- ").lower())
    return names


def is_write_like(tool: str) -> bool:
    """Whether ``tool``'s name says it changes something (:data:`WRITE_VERBS`); never for a reading verb or a tool
    that hands over to a person (``transfer_to_human_agents``)."""
    last = _SEGMENT.split(tool)[-1]
    words = [w.lower() for w in _WORD.split(last) if w]
    if not words or words[0] in READ_VERBS or "human" in words:
        return False
    return any(fnmatch.fnmatchcase(name, f"{verb}*") for name in _names(tool) for verb in WRITE_VERBS)


def parse_damage(text: str) -> DamageRule:
    """One ``--damage`` value, ``PATTERN=AMOUNT[:UNIT]`` (``exchange*=250:USD exchanged in error``). The unit is
    empty when not given (:func:`damage_rules` fills it in). Raises ProjectionError saying what is wrong."""
    pattern, sep, rest = text.partition("=")
    if not sep or not pattern.strip():
        raise ProjectionError(f"--damage {text!r}: write PATTERN=AMOUNT[:UNIT], e.g. 'cancel*=1' or "
                              "'exchange*=250:USD exchanged in error'")
    amount_text, colon, unit = rest.partition(":")
    if colon and not unit.strip():  # `--damage "exchange*=250:$UNIT"` with UNIT unset: never the default unit
        raise ProjectionError(f"--damage {text!r}: nothing after the `:`: write the damage unit there "
                              "('exchange*=250:USD exchanged in error'), or drop the `:` for the default unit")
    try:
        amount = float(amount_text)
    except ValueError:
        raise ProjectionError(f"--damage {text!r}: the amount {amount_text.strip()!r} is not a number") from None
    if not math.isfinite(amount) or not 0 < amount <= MAX_AMOUNT:
        raise ProjectionError(f"--damage {text!r}: the amount must be more than 0 and at most {MAX_AMOUNT:,.0f}")
    return DamageRule(pattern.strip(), amount, unit.strip())


def damage_rules(given: list[DamageRule]) -> tuple[list[DamageRule], bool]:
    """The rules a projection uses: ``given`` (every rule in the one unit they name; :data:`DEFAULT_UNIT` when
    none names one), or the write-like defaults when there are none. Returns ``(rules, defaulted)``. Raises
    ProjectionError when the rules name two units: a drill has one damage unit."""
    if not given:
        return [DamageRule("<write-like>", 1.0, DEFAULT_UNIT, write_like=True)], True
    units = sorted({r.unit for r in given if r.unit})
    if len(units) > 1:
        raise ProjectionError(f"--damage: the rules name {len(units)} damage units ({', '.join(map(repr, units))}); "
                              "a drill has one damage unit: give the same UNIT to every rule (or to one only)")
    unit = units[0] if units else DEFAULT_UNIT
    for r in given:  # as `warroom validate` checks the drill's amounts: the drill written must validate
        shown = damage_shown_otherwise(r.amount, unit)
        if shown is not None:
            rule = f"{visible_name(r.pattern)}={exact_figure(r.amount)}"
            raise ProjectionError(f"--damage {rule}: the amount shows as {shown} on "
                                  "the damage meter and the scorecard (amounts show to two decimals, and money as "
                                  "dollars and cents): give it with at most two decimals, or count in a smaller "
                                  "unit (cents, grams, seconds)")
    return [DamageRule(r.pattern, r.amount, unit) for r in given], False
