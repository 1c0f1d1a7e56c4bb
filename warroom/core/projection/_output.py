"""A tool result's output as the projection templates read and rewrite it: the structured value (a JSON text is
parsed), the form the source wrote it in (JSON text, compact or spaced, or YAML data), the places inside it a
template can change (collections, records, fields) and their field paths as the answer key writes them.

A projected result must read like the source's other results: :meth:`OutputForm.dump` writes a changed value back
in the form of the original (``json.dumps`` with the same separators and escaping for a JSON text, each text and
number the original holds spelt as it spelt it, and new text escaped as its own: PHP's ``\\/``, Go's ``\\u003c``, a
price's ``10.50``; plain data for structured YAML output). No drill model here: plain data in, plain data out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

#: How deep inside a result the templates look for collections, records and fields (levels of mappings).
MAX_DEPTH = 3
#: At most this many places of one result are considered (a huge result is searched only this far).
MAX_PLACES = 400
#: A key a field path can name: no ``.``, ``[``, ``]`` or white space (warroom.core.model.PATH_PATTERN).
_PATH_KEY = re.compile(r"^[^.\[\]\s]+$")


@dataclass(frozen=True)
class OutputForm:
    """How the source wrote one result's output: ``text`` True for a JSON text (then ``separators``, ``ensure_ascii``
    and ``indent`` are those that reproduce it), False for YAML data; ``field`` is the event's field that holds it
    (``output`` of a tool result, ``stdout`` of a command result)."""

    field: str
    text: bool
    separators: tuple[str, str] = (", ", ": ")
    ensure_ascii: bool = True
    indent: int | None = None
    #: The source's own spelling of a text or number token that json.dumps spells otherwise (``"10.5"`` ->
    #: ``"10.50"``, ``'"a/b"'`` -> ``'"a\\/b"'``), as pairs.
    spellings: tuple[tuple[str, str], ...] = ()
    #: Escapes the source writes in every text, for new text: ``/`` as ``\/`` (PHP), ``<``, ``>``, ``&`` as
    #: ``\u003c``... (Go).
    escapes: tuple[tuple[str, str], ...] = ()
    #: The white space the source writes before and after the JSON text (a tool's ``"\n"`` at its end): a result
    #: written anew keeps it, as every other result of the run has it.
    around: tuple[str, str] = ("", "")

    def dump(self, value: Any) -> Any:
        """``value`` written back in this form: a JSON text (in the white space of the source's), or the value."""
        if not self.text:
            return value
        text = json.dumps(value, separators=self.separators, ensure_ascii=self.ensure_ascii, indent=self.indent)
        if self.spellings or self.escapes:
            spelt = dict(self.spellings)
            text = _TOKEN.sub(lambda m: spelt.get(m[0]) or self._escaped(m[0]), text)
        return f"{self.around[0]}{text}{self.around[1]}"

    def respelt(self, text: str) -> str:
        """The JSON ``text`` with each text and number token as :meth:`dump` writes its value (a value the source
        spells two ways, ``1.0`` and ``1.00``, has one spelling): what a form of the source's layout dumps."""
        spelt = dict(self.spellings)

        def token(found: re.Match[str]) -> str:
            canonical = json.dumps(json.loads(found[0]), ensure_ascii=self.ensure_ascii)
            return spelt.get(canonical) or self._escaped(canonical)

        return _TOKEN.sub(token, text)

    def _escaped(self, token: str) -> str:
        """A token json.dumps wrote, with the source's escapes when it is a text."""
        if token.startswith('"'):
            for char, escape in self.escapes:
                token = token.replace(char, escape)
        return token


#: A JSON text or number token (a text first, so that digits inside one are never read as a number).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')
#: The escapes a JSON writer may use in every text that json.dumps does not: ``\/`` (PHP's json_encode), and Go's
#: HTML-safe ``\u003c``, ``\u003e``, ``\u0026``.
_WRITER_ESCAPES = (("/", "\\/"), ("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"))


def _own_spelling(text: str, ascii_: bool) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The spellings and escapes of :class:`OutputForm` that reproduce ``text``: each text or number token
    json.dumps would spell otherwise (the first spelling of a value wins), and each escape of
    :data:`_WRITER_ESCAPES` the text's strings always use (some use it, none holds the character as itself)."""
    spellings: dict[str, str] = {}
    strings: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match[0]
        if token.startswith('"'):
            strings.append(token)
            if "\\" not in token and (not ascii_ or token.isascii()):
                continue  # json.dumps spells it so
        elif not any(c in token for c in ".eE"):
            continue  # an integer (-0 too, read as 0): json.dumps spells it so
        canonical = json.dumps(json.loads(token), ensure_ascii=ascii_)
        if canonical != token:
            spellings.setdefault(canonical, token)
    escapes = tuple((char, escape) for char, escape in _WRITER_ESCAPES
                    if any(escape in s for s in strings) and not any(char in s.replace(escape, "") for s in strings))
    return tuple(spellings.items()), escapes


#: The JSON text forms tried, in order: Python's default, compact, JavaScript's, indented by 2 and 4.
_TEXT_FORMS: tuple[tuple[int | None, tuple[str, str]], ...] = (
    (None, (", ", ": ")), (None, (",", ":")), (None, (",", ": ")), (2, (",", ": ")), (4, (",", ": ")),
)


def _text_form(field: str, text: str, value: Any) -> OutputForm:
    """The JSON text form that writes ``value`` back as ``text`` (or the closest one: spaced, ASCII-escaped)."""
    ascii_ = "\\u" in text or not any(ord(c) > 127 for c in text)
    stripped = text.strip()
    for indent, seps in _TEXT_FORMS:  # most texts are json.dumps's own: no token is spelt otherwise
        form = OutputForm(field, True, seps, ascii_, indent)
        if form.dump(value) == stripped:
            return form
    spellings, escapes = _own_spelling(stripped, ascii_)
    if spellings or escapes:  # the layout, whatever a value's spellings (1.0 and 1.00 are written one way)
        respelt = OutputForm(field, True, ensure_ascii=ascii_, spellings=spellings, escapes=escapes).respelt(stripped)
        for indent, seps in _TEXT_FORMS:
            form = OutputForm(field, True, seps, ascii_, indent, spellings, escapes)
            if form.dump(value) == respelt:
                return form
    return OutputForm(field, True, (", ", ": ") if "\n" not in stripped else (",", ": "), ascii_,
                      2 if "\n" in stripped else None, spellings, escapes)


def read_output(event: dict[str, Any]) -> tuple[Any, OutputForm] | None:
    """A result event's output as data and the form it was written in; None when it holds nothing a template can
    change (no output, plain text that is not JSON, a number)."""
    field = "output" if "output" in event else "stdout" if "stdout" in event else None
    if field is None:
        return None
    raw = event[field]
    if isinstance(raw, str):
        stripped = raw.strip()
        if stripped[:1] not in ("{", "["):
            return None
        try:
            value = json.loads(stripped)
        except ValueError:
            return None
        if not isinstance(value, (dict, list)):
            return None
        around = (raw[:len(raw) - len(raw.lstrip())], raw[len(raw.rstrip()):])
        return value, replace(_text_form(field, raw, value), around=around)
    if isinstance(raw, (dict, list)) and field == "output":
        return raw, OutputForm(field, False)
    return None


@dataclass(frozen=True)
class Place:
    """A value inside a result: ``parts`` is its path (keys and list indexes from the top), ``value`` the value."""

    parts: tuple[str | int, ...]
    value: Any

    @property
    def key(self) -> str | int | None:
        """The last key of the path (None at the top)."""
        return self.parts[-1] if self.parts else None

    @property
    def depth(self) -> int:
        """Levels below the top (0: the result itself)."""
        return len(self.parts)


def path_text(parts: tuple[str | int, ...] | list[str | int]) -> str | None:
    """The field path of ``parts`` as the answer key writes it (``items[2].price``), or None when it has none: the
    top of the result, a path that starts with a list index, or a key a path cannot spell (a space, a dot)."""
    if not parts or isinstance(parts[0], int):
        return None
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PATH_KEY.fullmatch(part):
            out += f".{part}" if out else part
        else:
            return None
    return out


def _walk(value: Any, parts: tuple[str | int, ...] = ()) -> Iterator[Place]:
    """Every mapping of ``value`` (the top first), down to :data:`MAX_DEPTH` levels, never into list items."""
    yield Place(parts, value)
    if len(parts) >= MAX_DEPTH:
        return
    for key, item in value.items():
        if isinstance(item, dict):
            yield from _walk(item, (*parts, key))


def records_in(value: Any) -> list[Place]:
    """The mappings of a result (the top first, then nested ones, depth first), at most :data:`MAX_PLACES`."""
    if not isinstance(value, dict):
        return []
    out = []
    for place in _walk(value):
        out.append(place)
        if len(out) >= MAX_PLACES:
            break
    return out


def _is_record_map(value: Any) -> bool:
    """A mapping of two or more records (mappings) keyed by their ids (``{"9690244451": {...}, ...}``)."""
    return isinstance(value, dict) and len(value) >= 2 and all(isinstance(v, dict) for v in value.values())


def collections_in(value: Any) -> list[Place]:
    """The collections of a result: the result itself when it is a list, and every list or record map held by one
    of its mappings (:func:`records_in`). A collection inside a list item is not one (it belongs to that item)."""
    if isinstance(value, list):
        return [Place((), value)]
    out = []
    for record in records_in(value):
        for key, item in record.value.items():
            if isinstance(item, list) or _is_record_map(item):
                out.append(Place((*record.parts, key), item))
    return out[:MAX_PLACES]


def scalar_fields(record: Place) -> Iterator[Place]:
    """The fields of one mapping that hold a scalar (text, a number, a boolean), in order."""
    for key, item in record.value.items():
        if item is not None and not isinstance(item, (dict, list)):
            yield Place((*record.parts, key), item)


def get_at(value: Any, parts: tuple[str | int, ...]) -> Any:
    """The value at ``parts`` inside ``value`` (the path must exist)."""
    for part in parts:
        value = value[part]
    return value


def with_changed(value: Any, parts: tuple[str | int, ...], change: Any) -> Any:
    """A copy of ``value`` with the mapping or list at ``parts`` replaced by ``change(old)``; every container on
    the path is copied, the rest shared."""
    if not parts:
        return change(value)
    head, rest = parts[0], parts[1:]
    if isinstance(value, dict):
        return {k: (with_changed(v, rest, change) if k == head else v) for k, v in value.items()}
    copy = list(value)
    copy[head] = with_changed(copy[head], rest, change)  # type: ignore[index]
    return copy


def insert_after(mapping: dict[str, Any], after: str | None, items: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``mapping`` with ``items`` inserted just after key ``after`` (at the end when None or absent)."""
    if after is None or after not in mapping:
        return {**mapping, **items}
    out: dict[str, Any] = {}
    for key, value in mapping.items():
        out[key] = value
        if key == after:
            out.update(items)
    return out


def free_key(mapping: dict[str, Any], *names: str) -> str:
    """The first of ``names`` that ``mapping`` does not hold yet (the last one, with ``_`` in front, otherwise)."""
    for name in names:
        if name not in mapping:
            return name
    return "_" + names[-1]
