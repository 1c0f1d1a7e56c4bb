"""The unmarked drill: its YAML text with a header that shows the author what to add, and the check that
the only thing ``warroom validate`` finds missing is the answer key."""

from __future__ import annotations

import math
from typing import Any

from warroom.core.author import UNMARKED_NOTE
from warroom.core.rules import MISSING_ANSWER_KEY
from warroom.core.text import clean
from warroom.importers.kit._rules import TraceError

#: What ``warroom validate`` says about an imported drill until it is marked up (warroom.core.rules).
MISSING_KEY = MISSING_ANSWER_KEY

#: How JSON writers that allow them (Python's ``json``, JavaScript's ``String(x)``) spell the non-finite numbers.
_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def finite_numbers(data: Any) -> Any:
    """``data`` with every non-finite float (``NaN``, ``Infinity``, ``-Infinity``: not JSON, but Python's parser
    reads them, in a file and in the JSON text of tool arguments) as that text, ``"NaN"``. A drill has no such
    number: YAML would write ``.nan``, which the drill loader reads as the text ``.nan`` and warns about. Returns
    ``data`` itself when it holds none."""
    if isinstance(data, float) and not math.isfinite(data):
        return _NON_FINITE[str(data)]
    if isinstance(data, dict):
        items = {k: finite_numbers(v) for k, v in data.items()}
        return items if any(items[k] is not v for k, v in data.items()) else data
    if isinstance(data, list):
        values = [finite_numbers(v) for v in data]
        return values if any(a is not b for a, b in zip(values, data, strict=True)) else data
    return data


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
    others = [i for i in validate_drill(drill) if i.message != MISSING_KEY]
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
