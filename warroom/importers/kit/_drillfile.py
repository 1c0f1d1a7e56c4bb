"""The unmarked drill: its YAML text with a header that shows the author what to add, and the check that
the only thing ``warroom validate`` finds missing is the answer key."""

from __future__ import annotations

import json
import math
from typing import Any

from warroom.core.author import UNMARKED_NOTE
from warroom.core.rules import MISSING_ANSWER_KEY
from warroom.core.text import clean
from warroom.importers.kit._rules import TraceError

#: How JSON writers that allow them (Python's ``json``, JavaScript's ``String(x)``) spell the non-finite numbers.
_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


#: The deepest level of mappings and lists an imported drill's values reach (the drill loader's ``MAX_DEPTH``, less
#: a margin for what ``warroom project`` and ``warroom annotate`` may add around a value): deeper values are written
#: as their JSON text.
MAX_VALUE_DEPTH = 60


def writable_values(data: Any) -> Any:
    """``data`` with every value a drill file cannot hold (its loader refuses them) written as text, each kind with a
    :func:`~warroom.importers.kit.warn` naming its first place: a non-finite float (Python's JSON parser reads
    them; YAML would write ``.nan``, which the loader reads as text) as JSON writers spell it (``"NaN"``); a list
    or mapping nested deeper than :data:`MAX_VALUE_DEPTH` levels as its JSON text (a tool's arguments or a
    document nested hundreds of levels deep: the loader allows 64); a whole number of more than
    ``MAX_INT_DIGITS`` digits (decoded from the JSON text inside a trace value) as its digits; an unpaired UTF-16
    surrogate (from a ``"\\ud800"`` in that JSON text: not a character, and no UTF-8 file can hold it) as that
    escape. Returns ``data`` itself when it holds none; never recurses deeper than :data:`MAX_VALUE_DEPTH`."""
    found: dict[str, list[str]] = {}
    out = _writable(data, 1, "", found)
    if found:
        from warroom.importers.kit._reading import warn

        for kind, places in found.items():
            more = f" (and {len(places) - 1:,} more)" if len(places) > 1 else ""
            place = places[0] if len(places[0]) <= 60 else f"{places[0][:60]}..."
            warn(f"{clean(place)}{more}: {kind}")
    return out


_TOO_DEEP = (f"nested deeper than {MAX_VALUE_DEPTH} levels (a drill file holds 64): written as its JSON text")
_TOO_LONG = "a whole number of more than 4,000 digits (a drill file holds no longer one): written as its digits"
_SURROGATE = "an unpaired surrogate, which is not a character: written as its escape (\\udXXX)"


def _writable(value: Any, level: int, where: str, found: dict[str, list[str]]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return _NON_FINITE[str(value)]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _LONGEST:
        found.setdefault(_TOO_LONG, []).append(where or "the drill")
        return str(value)
    if isinstance(value, str):
        return _escaped_surrogates(value, where, found)
    if not isinstance(value, (dict, list)):
        return value
    if level > MAX_VALUE_DEPTH:
        found.setdefault(_TOO_DEEP, []).append(where or "the drill")
        return _escaped_surrogates(_json_text(value), where, found)
    if isinstance(value, list):
        values = [_writable(v, level + 1, f"{where}[{i}]", found) for i, v in enumerate(value)]
        return values if any(a is not b for a, b in zip(values, value, strict=True)) else value
    items = {_escaped_surrogates(k, where, found) if isinstance(k, str) else k:
             _writable(v, level + 1, f"{where}.{k}" if where else str(k), found) for k, v in value.items()}
    return value if _same_items(items, value) else items


def _same_items(items: dict[Any, Any], value: dict[Any, Any]) -> bool:
    """Whether ``items`` holds the same keys and the very same values as ``value``, in the same order."""
    return len(items) == len(value) and all(
        a == b and x is y for (a, x), (b, y) in zip(items.items(), value.items(), strict=True))


#: The smallest whole number of more than 4,000 digits (the drill loader's ``MAX_INT_DIGITS``).
_LONGEST = 10**4000


def _json_text(value: Any) -> str:
    """``value`` as compact JSON text (non-finite numbers as JSON writers spell them), or a note of its depth when
    even that is too deep for Python's encoder."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except RecursionError:
        return "(a value nested too deeply to write)"


def _escaped_surrogates(text: str, where: str, found: dict[str, list[str]]) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        found.setdefault(_SURROGATE, []).append(where or "the drill")
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def dump_unmarked(data: dict[str, Any], header: str) -> str:
    """``data`` (a drill without ``answer_key``) as YAML text, with ``header`` and the mark-up instructions as a
    ``#`` comment at the top."""
    return dump_drill_yaml(data, f"{header}\n\n{UNMARKED_NOTE}")


def check_unmarked(data: dict[str, Any]) -> None:
    """Check the drill ``data`` with the drill model and every drill rule, and make sure its only problem is the
    missing answer key (what ``warroom validate`` will say of the written file: :func:`dump_unmarked` writes YAML
    that loads back as ``data`` exactly). The data is checked rather than the YAML text so that a trace of
    thousands of spans imports in about a second: reading YAML with positions is what takes the time.

    Raises TraceError with the first other problem (``trace[12].call: message``) if there is any.
    """
    from pydantic import ValidationError

    from warroom.core.model import Drill
    from warroom.core.rules import validate_drill

    def where(loc: tuple[Any, ...]) -> str:
        return "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".")

    try:
        drill = Drill.model_validate(data)
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        raise TraceError(f"the drill made from this trace does not validate: {where(tuple(first['loc']))}: "
                         f"{first['msg']}") from None
    others = [i for i in validate_drill(drill) if i.message != MISSING_ANSWER_KEY]
    if others:
        raise TraceError(f"the drill made from this trace does not validate: {where(others[0].loc)}: "
                         f"{others[0].message}")
    if drill.answer_key is not None or drill.all_clear is not None:
        raise TraceError("the drill made from this trace has an answer key; the importer never writes one")


def dump_drill_yaml(data: dict[str, Any], header: str | None = None) -> str:
    """``data`` as YAML text (safe dumper, no aliases, keys in the given order, Unicode kept), with an optional
    ``# comment`` header (its control characters escaped: YAML allows none, not even in a comment); multi-line
    text as literal blocks where it can be. Loading the text back with a safe loader gives ``data`` exactly.
    Written by :func:`warroom.importers.kit.dump_data` (what ``yaml.dump`` writes, without PyYAML's slow
    representer). Raises TypeError for a value that is not plain drill data."""
    from warroom.importers.kit._yamlemit import dump_data

    body = dump_data(data)
    if header:  # a trace id or a file name in it is the source's text: its control characters are written escaped
        comment = "".join(f"# {clean(line)}\n".replace("# \n", "#\n") for line in header.splitlines())
        return comment + body
    return body
