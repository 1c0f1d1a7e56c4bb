"""Plain drill data as YAML text, fast: what ``yaml.dump`` with the safe dumper writes, byte for byte, in a
fraction of the time.

``yaml.dump`` spends most of its time in PyYAML's Python representer (a node per value, two resolver calls per
scalar) even with the C emitter; for a 5,000-span trace that is seconds. Drill data is only dicts (string keys),
lists, str, int, float, bool and None, so this module turns it straight into the emitter's events, deciding each
scalar's tag and implicitness exactly as PyYAML's ``SafeRepresenter`` and ``Serializer`` do (the resolver is asked
only about strings, once per distinct first character class), and lets libyaml's emitter choose quoting and
layout as before. The result loads back with a safe loader as the same data.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from yaml.nodes import ScalarNode

from warroom.core.load import core_tag

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_INT, _FLOAT, _BOOL, _NULL = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                              "tag:yaml.org,2002:null")
#: First characters for which some implicit resolver may apply (anything else is a plain string at once).
_RESOLVABLE = frozenset(yaml.resolver.Resolver.yaml_implicit_resolvers)
_resolver = yaml.resolver.Resolver()


def _plain_is_str(text: str) -> bool:
    """Whether ``text`` written plain reads back as a string both under PyYAML's implicit resolvers (YAML 1.1) and
    under the YAML 1.2 core schema the drill loader reads (``1e5``, ``1.5e3``, ``0o17`` are text in YAML 1.1 but
    numbers in YAML 1.2: written plain, an imported name or text would load as a number)."""
    if text and text[0] not in _RESOLVABLE:
        return True
    return _resolver.resolve(ScalarNode, text, (True, False)) == _STR and core_tag(text) == _STR


def _float_text(x: float) -> str:
    """A float as ``SafeRepresenter.represent_float`` writes it."""
    if x != x:
        return ".nan"
    if x == float("inf"):
        return ".inf"
    if x == float("-inf"):
        return "-.inf"
    text = repr(x).lower()
    return text.replace("e", ".0e", 1) if "." not in text and "e" in text else text


def _events(value: Any, out: list[Event]) -> None:
    """Append the events of ``value`` (drill data) to ``out``. Raises TypeError for any other type."""
    kind = type(value)
    if kind is str:
        if "\u2028" in value or "\u2029" in value:  # libyaml breaks the line there (YAML 1.1); the drill loader
            # reads them as characters (YAML 1.2), the indentation after them too: escaped (`\L`), they are the same
            out.append(ScalarEvent(None, _STR, (False, True), value, style='"'))
            return
        out.append(ScalarEvent(None, _STR, (_plain_is_str(value), True), value, style="|" if "\n" in value else None))
    elif kind is dict:
        out.append(MappingStartEvent(None, _MAP, True, flow_style=False))
        for k, v in value.items():
            if type(k) is not str:
                raise TypeError(f"drill data keys are text, not {type(k).__name__}: {k!r}")
            _events(k, out)
            _events(v, out)
        out.append(MappingEndEvent())
    elif kind is list:
        out.append(SequenceStartEvent(None, _SEQ, True, flow_style=False))
        for v in value:
            _events(v, out)
        out.append(SequenceEndEvent())
    elif kind is bool:
        out.append(ScalarEvent(None, _BOOL, (True, False), "true" if value else "false"))
    elif kind is int:
        out.append(ScalarEvent(None, _INT, (True, False), str(value)))
    elif kind is float:
        out.append(ScalarEvent(None, _FLOAT, (True, False), _float_text(value)))
    elif value is None:
        out.append(ScalarEvent(None, _NULL, (True, False), "null"))
    else:
        raise TypeError(f"drill data holds only dicts, lists, text, numbers, booleans and null, not "
                        f"{kind.__name__}")


def _stream(data: Any) -> Iterator[Event]:
    yield StreamStartEvent()
    yield DocumentStartEvent(explicit=None)
    body: list[Event] = []
    _events(data, body)
    yield from body
    yield DocumentEndEvent(explicit=None)
    yield StreamEndEvent()


def dump_data(data: Any) -> str:
    """``data`` (dicts with text keys, lists, str, int, float, bool, None; no shared references needed) as block
    YAML: keys in the given order, Unicode kept, lines up to 120 wide, multi-line text as literal blocks where it
    can be. The same text as ``yaml.dump(data, Dumper=SafeDumper, sort_keys=False, allow_unicode=True, width=120,
    default_flow_style=False)`` with multi-line strings asked for in ``|`` style, but for text holding U+2028 or
    U+2029, written double-quoted with them escaped (``\\L``, ``\\P``: PyYAML breaks the line there and indents
    what follows, which the drill loader, reading YAML 1.2, would take as part of the text). Raises TypeError for
    other types.
    """
    return yaml.emit(_stream(data), Dumper=_Dumper, allow_unicode=True, width=120)
