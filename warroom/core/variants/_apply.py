"""Seeded variants of a drill: the same incident, a different trace each session (docs/authoring.md "Seeded
variants").

A drill's ``variants`` section (:class:`~warroom.core.model.Variants`) says what may change: names, amounts,
timing jitter within bounds, the order of independent distractors, and which of several equivalent phrasings an
event shows. :func:`apply_variant` turns a drill and a seed (a whole number) into the variant for that seed: a pure
function, the same drill and seed give the same variant on every machine and Python version (every draw is a
BLAKE2b hash of the seed and a label naming the parameter, never :mod:`random`), and the variant is a valid drill
(``variants`` removed) that scores, reviews and checks like any other.

:func:`variant_issues` checks a drill's ``variants`` section (each problem at the value at fault, reported by the
loader as ``path:line:col: message``); :func:`new_seed` draws a session's seed; :func:`check_variants` runs
``warroom check`` on several seeds.

What a variant never changes: ids, the plan, the title, the briefing (read before a session draws its seed), the
models and token usage, the deadline, which events are evidence, damage or distractors.
"""

from __future__ import annotations

import copy
import hashlib
import math
import re
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from warroom.core.model import (
    EVENT_DATA_FIELDS,
    MAX_DRILL_SECONDS,
    AmountVariant,
    Drill,
    amount_format,
    amount_pattern,
    ending_event,
    name_pattern,
    variable_texts,
)
from warroom.errors import WarroomError

#: Seeds a new session draws from: 0 to 2**31 - 1.
SEED_RANGE = 2**31

#: Times :func:`new_seed` draws to find a variant unlike the recent ones before it settles for the last drawn.
SEED_TRIES = 32


class VariantError(WarroomError, ValueError):
    """A variant could not be made: the drill's ``variants`` section does not fit the drill (``warroom validate``
    reports why)."""


def draw(seed: int, label: str, n: int) -> int:
    """A whole number in ``0 .. n-1`` drawn for ``seed`` and the parameter named ``label``: the same on every
    machine. Independent labels give independent draws, so adding a parameter does not change the others."""
    digest = hashlib.blake2b(f"{seed}\x00{label}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % n


# ---------------------------------------------------------------------------------------------------------------
# Applying a variant
# ---------------------------------------------------------------------------------------------------------------


def apply_variant(drill: Drill, seed: int | None) -> Drill:
    """The variant of ``drill`` for ``seed``: names and amounts replaced, one phrasing chosen per listed event,
    each shuffle group's release times dealt out anew, every event's time jittered (the trace's order kept).

    Returns ``drill`` itself when ``seed`` is None or the drill has no ``variants``; otherwise a new, valid
    :class:`Drill` without a ``variants`` section (nor a ``twin``: a variant is what one session plays, and a
    noise trial plays the twin's variant, :func:`warroom.core.variants.session_drill`). Pure and deterministic.
    Raises :class:`VariantError` when the section does not fit the drill (a drill that passed ``warroom validate``
    never does).
    """
    if seed is None or drill.variants is None:
        return drill
    return validated_variant(variant_data(drill, seed), seed)


def variant_data(drill: Drill, seed: int) -> dict[str, Any]:
    """The data of :func:`apply_variant`'s variant (``drill`` has a ``variants`` section), not validated yet: a
    caller may change it more (rename its ids) and validate it once, with :func:`validated_variant`."""
    data = drill.model_dump(mode="json")
    data["variants"] = data["twin"] = None
    _choose_phrasings(drill, seed, data)
    _replace_text(drill, seed, data)
    _shuffle(drill, seed, data)
    _jitter(drill, seed, data)
    return data


def validated_variant(data: dict[str, Any], seed: int) -> Drill:
    """The variant of :func:`variant_data` (perhaps changed since) as a valid drill. Raises :class:`VariantError`."""
    return _validated(data, f"seed {seed}")


def _validated(data: dict[str, Any], what: str) -> Drill:
    from pydantic import ValidationError

    from warroom.core.rules import validate_drill

    try:
        out = Drill.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise VariantError(f"the variant for {what} is not a valid drill: {where}: {first['msg']}") from None
    issues = validate_drill(out)
    if issues:
        where = ".".join(str(p) for p in issues[0].loc)
        raise VariantError(f"the variant for {what} is not a valid drill: {where}: {issues[0].message}")
    return out


def _choose_phrasings(drill: Drill, seed: int, data: dict[str, Any]) -> None:
    assert drill.variants is not None
    index = {e["id"]: i for i, e in enumerate(data["trace"])}
    for p in drill.variants.phrasings:
        pick = draw(seed, f"phrasing:{p.event}", len(p.choices) + 1)
        if pick and p.event in index:  # 0: as written
            data["trace"][index[p.event]].update(copy.deepcopy(p.choices[pick - 1]))  # shares nothing with drill


def _drawn_amount(a: AmountVariant, seed: int) -> tuple[str, float]:
    """The amount drawn for ``a``: as text (written like ``a.text``) and as a number."""
    _, decimals, commas = amount_format(a.text)
    scale = 10**decimals
    lo, hi = math.ceil(a.min * scale - 1e-9), math.floor(a.max * scale + 1e-9)
    if hi < lo:
        raise VariantError(f"no number with {decimals} decimals lies between {a.min:g} and {a.max:g}")
    value = (lo + draw(seed, f"amount:{a.text}", hi - lo + 1)) / scale
    text = f"{value:,.{decimals}f}" if commas else f"{value:.{decimals}f}"
    return text, value


def _replacer(drill: Drill, seed: int) -> tuple[Callable[[str], str], dict[float, float | int]] | None:
    """A function that replaces every name and amount in a text, and the JSON numbers to replace (old -> new)."""
    assert drill.variants is not None
    spec = drill.variants
    table: dict[str, str] = {}
    patterns: list[tuple[int, str]] = []
    numbers: dict[float, float | int] = {}
    for n in spec.names:
        options = [n.text, *n.choices]
        table[n.text] = options[draw(seed, f"name:{n.text}", len(options))]
        patterns.append((len(n.text), name_pattern(n.text)))
    for a in spec.amounts:
        text, value = _drawn_amount(a, seed)
        table[a.text] = text
        patterns.append((len(a.text), amount_pattern(a.text)))
        old, decimals, _ = amount_format(a.text)
        numbers[old] = int(value) if decimals == 0 else value
    if not table:
        return None
    regex = re.compile("|".join(p for _, p in sorted(patterns, key=lambda x: -x[0])))
    return (lambda s: regex.sub(lambda m: table[m.group(0)], s)), numbers


def _map_data(value: Any, text: Callable[[str], str], numbers: dict[float, float | int]) -> Any:
    """``value`` (tool data: JSON-like) with texts rewritten and listed numbers replaced; keys never change."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        try:
            return numbers.get(float(value), value)
        except OverflowError:  # a whole number past what a float holds is no listed number
            return value
    if isinstance(value, list):
        return [_map_data(v, text, numbers) for v in value]
    if isinstance(value, dict):
        return {k: _map_data(v, text, numbers) for k, v in value.items()}
    return value


def _replace_text(drill: Drill, seed: int, data: dict[str, Any]) -> None:
    made = _replacer(drill, seed)
    if made is None:
        return
    text, numbers = made
    for _, container, field in list(variable_texts(data)):
        value = container[field]
        if field in EVENT_DATA_FIELDS:
            container[field] = _map_data(value, text, numbers)
        elif isinstance(value, str):
            container[field] = text(value)


def _deal(seed: int, label: str, items: list[Any]) -> list[Any]:
    """``items`` in the order drawn for ``seed`` (a Fisher-Yates shuffle driven by :func:`draw`)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = draw(seed, f"{label}:{i}", i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _shuffle(drill: Drill, seed: int, data: dict[str, Any]) -> None:
    assert drill.variants is not None
    if not drill.variants.shuffle:
        return
    index = {e["id"]: i for i, e in enumerate(data["trace"])}
    for g, group in enumerate(drill.variants.shuffle):
        slots = sorted(data["trace"][index[e]]["t"] for e in group)
        for event_id, t in zip(_deal(seed, f"shuffle:{g}", list(group)), slots, strict=True):
            data["trace"][index[event_id]]["t"] = t
    data["trace"].sort(key=lambda e: e["t"])  # stable: events released at the same time keep their order


def _jitter(drill: Drill, seed: int, data: dict[str, Any]) -> None:
    """Move each event by up to ``max_seconds`` either way (in steps of 0.1 s), then keep the trace's order: an
    event never comes before the one listed above it. Every event ends within ``max_seconds`` of its time; events
    at 0 s (what is on screen when the drill starts) stay there. A probe's earlier answer by time (``until``) moves
    with the event it holds until (:func:`~warroom.core.model.ending_event`, the first at or after its time), as
    ``warroom project`` moves it: the answer still holds until that event is out, never after it nor only until
    before it."""
    assert drill.variants is not None
    if drill.variants.jitter is None:
        return
    tenths = int(drill.variants.jitter.max_seconds * 10 + 1e-9)
    previous = 0.0
    was = [float(event["t"]) for event in data["trace"]]
    for event in data["trace"]:
        if event["t"] == 0:
            continue
        shift = (draw(seed, f"jitter:{event['id']}", 2 * tenths + 1) - tenths) / 10
        t = round(min(max(event["t"] + shift, 0.0, previous), MAX_DRILL_SECONDS), 3)
        event["t"] = previous = max(t, previous)
    for probe in data["probes"]:
        for answer in probe.get("answers") or []:
            after = ending_event(answer["until"], was) if answer.get("until") is not None else None
            if after is not None:  # never before the event before it, which came before it as written
                floor = data["trace"][after - 1]["t"] if after else 0.0
                answer["until"] = round(max(answer["until"] + data["trace"][after]["t"] - was[after], floor), 3)


# ---------------------------------------------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------------------------------------------


def fingerprint(drill: Drill) -> str:
    """A short hash of what a trainee sees of ``drill``'s trace (every event, its time and text)."""
    text = "\n".join(e.model_dump_json() for e in drill.trace)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def new_seed(drill: Drill, recent: Iterable[int] = (), fixed: int | None = None) -> int | None:
    """The seed of a new session of ``drill``: ``fixed`` when given (``warroom run --seed N``); None for a drill
    without ``variants`` or a ``twin`` (it plays as written); a random seed for a drill with a twin and no variants
    (the seed draws signal or noise: :func:`warroom.core.variants.draw_played_as`); else a random seed whose
    variant differs from the variants of the ``recent`` seeds (the trainee's last sessions of this drill), when one
    is found in :data:`SEED_TRIES` draws."""
    if fixed is not None:
        return fixed
    if drill.variants is None:
        return secrets.randbelow(SEED_RANGE) if drill.twin is not None else None
    seen = {fingerprint(apply_variant(drill, s)) for s in recent}
    seed = secrets.randbelow(SEED_RANGE)
    for _ in range(SEED_TRIES):
        if fingerprint(apply_variant(drill, seed)) not in seen:
            break
        seed = secrets.randbelow(SEED_RANGE)
    return seed


# ---------------------------------------------------------------------------------------------------------------
# Checking the variants section
# ---------------------------------------------------------------------------------------------------------------


