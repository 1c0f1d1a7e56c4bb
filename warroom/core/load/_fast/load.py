"""The fast load path: parse a valid drill file with yaml-rs (a YAML 1.2 parser written in Rust), or decline.

The loader (:mod:`warroom.core.load._loader`) first tries :func:`fast_drill`. It returns the validated
:class:`~warroom.core.model.Drill` only when it is sure that the position-tracking path (PyYAML nodes, built by
:mod:`warroom.core.load._yaml.build`) would build the very same data and report no problem and no warning; otherwise it
returns None and the loader takes that path, which reports every problem at its ``path:line:col``. See
benchmarks/README.md, "Load path", for why yaml-rs and how the two paths are kept equal (tests/unit/test_load_paths.py).

yaml-rs gives built values, not the scalars as written: it does not say whether ``1.10`` was quoted, and it reads
a few plain forms otherwise than the YAML 1.2 core schema (``1_000``, ``0b101`` and ``012`` as numbers). So the
fast path declines a file when:

- it holds anything unusual for a drill: a tab, a lone CR, a control or non-printable character, U+0085, U+2028 or
  U+2029, a byte-order mark inside the text, an escaped half of a surrogate pair (``\\ud83d``, refused by the
  PyYAML path, which yaml-rs would join), a directive or document marker (``%YAML``, ``---``, ``...``), an
  anchor, alias or tag (``&a``, ``*a``, ``!!str``), a ``?`` key, a merge key (``<<``), a quoted key followed by
  ``:`` without a space, more than :data:`~warroom.core.load.limits.MAX_DEPTH` levels, a key that is not text, or a
  null inside a file that has a ``{...}`` mapping (an entry without a colon is an error there);
- a token that could be an unquoted scalar is not certain to mean the same to every reader: every such token must
  be a plain decimal number that shows as written (``42``, ``-3``, ``2.5``, ``1e3``; not ``1.10``, ``012``, ``+1``,
  ``.5``), ``true``, ``false``, ``null``, or text to yaml-rs, the YAML 1.2 core schema and YAML 1.1 alike;
- a `` #`` after text on a line may be a comment that cuts unquoted free text or tool data short (a warning; see
  :mod:`warroom.core.load._fast.comments`);
- the data is not a valid drill (pydantic or the semantic rules report anything).

The parse starts first, on yaml-rs's parser thread (:func:`warroom.core.load._fast.yamlrs.submit`), and the text checks
above
run meanwhile: yaml-rs releases the GIL while it builds its own tree, so on a machine with a free core the checks
cost no wall time (about a quarter of the load of a large drill). A declined file's parse runs on and is dropped.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Set as AbstractSet
from concurrent.futures import Future
from functools import lru_cache
from itertools import chain, filterfalse
from typing import Any

from warroom.core.load import limits
from warroom.core.load._fast import yamlrs
from warroom.core.load._fast.comments import comments_harmless, hashes_after_text
from warroom.core.load._fast.text import unusual
from warroom.core.load._yaml import core as yc
from warroom.core.load._yaml.build import underflows
from warroom.core.load._yaml.shape import DATA, drill_shape, field_shape

#: Tokens every reader reads alike, with nothing to warn about: decimal numbers shown as written, true/false/null.
_SIMPLE = re.compile(r"(?:-?(?:0|[1-9][0-9]{0,30})(?:\.(?:0|[0-9]*[1-9])?)?(?:[eE][-+]?[0-9]{1,2})?|true|false|null)\Z")
#: A token where an unquoted scalar could be (after an indicator or at the start of a line, up to where a plain
#: scalar ends: spaces, then a line end, a comment or a flow indicator) that starts like a number, null, a boolean
#: or a merge key: one expression per indicator (a line feed, ``,``, ``[``, ``{``, or ``:``, ``-``, ``?`` followed
#: by a space), each starting with a literal that the regex engine finds in C. No match holds another's start (a
#: token holds no line feed, comma or bracket, and an indicator inside it is followed by a non-space, or by the
#: spaces before a line end, comment or flow indicator), so every expression finds every token after its indicator
#: and together they find exactly the tokens of one expression starting with ``[\n\[{,:?-]`` (about 30 % faster
#: than that one on a large drill, which tries the whole expression at every line feed, colon and dash;
#: tests/unit/test_fastload_token.py). The spaces are matched possessively, ``*+``: what follows them is never a
#: space, so giving one back never helps.
_TOKEN_AFTER = (r"\n *+", r", *+", r"\[ *+", r"\{ *+", r": ++", r"- ++", r"\? ++")
_TOKENS = tuple(
    re.compile(after + r"([-+.0-9~<=yYnNoOtTfF][^\s,\[\]{}]*) *+(?=[\n\r#,\]}]|\Z)") for after in _TOKEN_AFTER
)


def fast_drill(text: str) -> Any | None:
    """The validated Drill of the YAML ``text``, or None to let the position-tracking path load it.

    None whenever the file is unusual, has a problem or a warning, or yaml-rs is not installed (see the module
    docstring). Never raises for any ``text``. The cyclic garbage collector is paused meanwhile (the values built
    here hold no cycles; collecting while millions of them are made only costs time).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _fast_drill(text)
    finally:
        if enabled:
            gc.enable()


def _fast_drill(text: str) -> Any | None:
    from pydantic import ValidationError

    from warroom.core.model import Drill
    from warroom.core.rules import validate_drill

    data = fast_data(text)
    if data is None:
        return None
    try:
        trace = data.get("trace")
        if isinstance(trace, list):  # event by event: each event's plain values are freed once it is a model
            validate_event = _trace_event_adapter().validator.validate_python
            share = _FieldSets().share
            for i, event in enumerate(trace):
                trace[i] = share(validate_event(event))
        drill = Drill.model_validate(data)
    except (ValidationError, ValueError, TypeError, RecursionError):
        return None
    del data
    try:
        if validate_drill(drill):
            return None
    except Exception:
        return None
    return drill


class _FieldSets:
    """One ``model_fields_set`` object shared by every trace event (and its ``usage``) that has the same fields set.

    pydantic gives each model instance a set of the fields its input held: about 700 bytes per event and as much
    for its usage, the largest part of a big drill's models (about 60 MB of 50,000 events). The models are frozen, so
    nothing changes the set in place (``model_copy`` copies it first); sharing equal sets changes no behaviour.
    """

    def __init__(self) -> None:
        self._last: dict[type, set[str]] = {}  # by model class: the fields set of the latest one seen

    def share(self, model: Any) -> Any:
        """``model``, its fields set (and its usage's) replaced by an equal one seen before, when there is one."""
        last = self._last
        for part in (model, model.__dict__.get("usage")):
            if part is None:
                continue
            fields = part.__pydantic_fields_set__
            seen = last.get(part.__class__)
            if seen is not None and seen == fields:
                object.__setattr__(part, "__pydantic_fields_set__", seen)
            else:
                last[part.__class__] = fields
        return model


@lru_cache(maxsize=1)
def _trace_event_adapter() -> Any:
    from pydantic import TypeAdapter

    from warroom.core.model import TraceEvent

    return TypeAdapter(TraceEvent)


def fast_data(text: str) -> dict[str, Any] | None:
    """The plain data of a drill's YAML ``text`` as the position-tracking path builds it, or None when unsure."""
    if not yamlrs.available() or len(text) > limits.MAX_FILE_BYTES:
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    parsing = yamlrs.submit(text)  # parsed on the parser thread while this one looks at the text (see _parse)
    if unusual(text):
        return None
    readings = _token_readings(text)
    if readings is None:
        return None
    hash_after_text = next(hashes_after_text(text), None) is not None  # text only: looked at before the wait
    data = _parse(text, parsing)
    anywhere, in_data = readings
    if not isinstance(data, dict) or not _plain_tree(data, limits.MAX_DEPTH, "{" in text, anywhere):
        return None  # (a value read otherwise is looked for in the same walk)
    if in_data and _holds(_data_scalars(data, drill_shape()), in_data):
        return None
    if hash_after_text and not comments_harmless(text, data, _parse):
        return None
    return data


def _parse(text: str, parsing: Future[Any] | None = None) -> Any:
    """``text`` parsed by yaml-rs (the result of ``parsing``, its parse already started), or None when it cannot.

    yaml-rs releases the GIL while it builds its own tree, which is about half its work: :func:`fast_data` starts
    the parse on the parser thread before it looks at the text (pure Python and regular expressions, bound to the
    GIL), so on a machine with a free core the two overlap. A text it declines meanwhile leaves its parse running;
    the result is dropped when it is done."""
    try:
        return parsing.result() if parsing is not None else yamlrs.loads(text)
    except Exception:
        return None


def _token_readings(text: str) -> tuple[set[Any], set[Any]] | None:
    """How yaml-rs reads the tokens that could be unquoted scalars meaning something else to another reader.

    Returns ``(anywhere, in_data)``: the file is read alike by both paths when no value of the data is in
    ``anywhere`` and no value in tool data is in ``in_data`` (a token such as ``0.40``: the same number to every
    reader where a number is expected, but kept as the text "0.40" in tool data). None when a token is beyond doubt
    read otherwise (yaml-rs cannot read it on its own, or reads it as a list or mapping).
    """
    anywhere: set[Any] = set()
    in_data: set[Any] = set()
    for token in filterfalse(_SIMPLE.match, _tokens(text)):  # most tokens are simple: passed over in C
        if token.endswith(":"):  # `key:` ending a line is a key: text, whatever it says
            continue
        reading = _reading(token)
        if reading is _UNREADABLE or reading != reading:  # NaN equals nothing: it could not be looked for
            return None
        if reading == 0 and isinstance(reading, float) and underflows(token):  # 1e-400: never read as 0 here
            return None
        if reading is not _TEXT_EVERYWHERE:
            (in_data if _typed_number(token, reading) else anywhere).add(reading)
    return anywhere, in_data


#: Characters of text per scan of :data:`_TOKENS` (see :func:`_tokens`).
_CHUNK = 1 << 20


def _tokens(text: str) -> set[str]:
    """The distinct tokens :data:`_TOKENS` find in ``"\n" + text``, found a chunk of lines at a time (each chunk
    after the first starts at a line feed). No match spans a line feed but at its start, and a chunk's end reads
    as the line feed after it does, so the tokens are the same as of one scan; only one chunk's list of tokens
    is held at a time (a big drill has hundreds of thousands), and the parser thread (see :func:`_parse`) may take
    the GIL between two scans."""
    tokens: set[str] = set()
    start, lead = 0, "\n"
    while True:
        end = text.find("\n", start + _CHUNK) if start + _CHUNK < len(text) else -1
        end = len(text) if end < 0 else end
        chunk = lead + text[start:end]
        for pattern in _TOKENS:
            tokens.update(pattern.findall(chunk))
        if end >= len(text):
            return tokens
        start, lead = end, ""


_UNREADABLE = object()
_TEXT_EVERYWHERE = object()


@lru_cache(maxsize=4096)
def _reading(token: str) -> Any:
    """yaml-rs's reading of the unquoted ``token``; :data:`_TEXT_EVERYWHERE` when yaml-rs, the YAML 1.2 core schema
    and YAML 1.1 all read it as that text; :data:`_UNREADABLE` when it is not a scalar on its own."""
    try:
        loaded: Any = yamlrs.loads(f"x: {token}\n", strict=False) if yamlrs.available() else None
        value = loaded["x"] if loaded is not None else None
    except Exception:
        return _UNREADABLE
    if value.__class__ in (dict, list):
        return _UNREADABLE
    if value == token and yc.core_tag(token) == yc.STR and yc.yaml11_value(token) == token:
        return _TEXT_EVERYWHERE
    return value


def _typed_number(token: str, reading: Any) -> bool:
    """True for a YAML 1.2 number that yaml-rs reads alike and that needs no message where a number is expected
    (not a whole number with a leading zero): only tool data may read it otherwise."""
    tag = yc.core_tag(token)
    if tag not in (yc.INT, yc.FLOAT) or (tag == yc.INT and re.match(r"[-+]?0[0-9]", token)):
        return False
    try:
        return yc.same_value(yc.construct_core(tag, token), reading)
    except yc.ScalarError:
        return False


def _holds(scalars: Any, readings: set[Any]) -> bool:
    """True when a scalar is one of ``readings`` (by value; a number also matches an equal number of another
    type, which only makes the fast path decline more often)."""
    return any(v in readings for v in scalars)


def _scalars(value: Any) -> Any:
    """Every scalar in ``value`` (mapping keys are text and need no look)."""
    stack = [value]
    while stack:
        node = stack.pop()
        for v in node.values() if node.__class__ is dict else node:
            if v.__class__ is dict or v.__class__ is list:
                stack.append(v)
            else:
                yield v


def _data_scalars(value: Any, shape: Any) -> Any:
    """Every scalar of ``value`` (read as ``shape``) that is in tool data (``DATA`` of the YAML shapes)."""
    if shape == DATA:
        if value.__class__ is dict or value.__class__ is list:
            yield from _scalars(value)
        else:
            yield value
        return
    if not isinstance(shape, tuple):
        return
    kind = shape[0]
    if kind == "union" and value.__class__ is dict:
        model = shape[1].get(value.get("kind")) if isinstance(value.get("kind"), str) else None
        shape, kind = ("model", model), "model"
        if model is None:
            return
    if kind == "model" and value.__class__ is dict:
        for key, v in value.items():
            yield from _data_scalars(v, field_shape(shape[1], key))
    elif kind == "dict" and value.__class__ is dict:
        for v in value.values():
            yield from _data_scalars(v, shape[1])
    elif kind == "list" and value.__class__ is list:
        for v in value:
            yield from _data_scalars(v, shape[1])


def _plain_tree(
    data: dict[str, Any], max_depth: int, has_flow: bool, readings: AbstractSet[Any] = frozenset()
) -> bool:
    """True when every key is text, nothing is nested ``max_depth`` levels deep, (in a file with ``{...}``) no
    mapping holds a null, and no scalar is one of ``readings`` (as :func:`_holds` of :func:`_scalars` looks, in the
    same walk). Walks the tree one level at a time, each level's keys and values taken at once."""
    level: list[Any] = [data]
    for _ in range(max_depth):
        dicts = [node for node in level if node.__class__ is dict]
        try:
            "".join(chain.from_iterable(dicts))  # every key is text (a TypeError when one is not)
        except TypeError:
            return False
        values = list(chain.from_iterable(map(dict.values, dicts)))
        if has_flow and None in values:
            return False
        if len(dicts) < len(level):  # the items of the lists
            values += chain.from_iterable(node for node in level if node.__class__ is list)
        below = [v for v in values if v.__class__ is dict or v.__class__ is list]
        if readings and not readings.isdisjoint(
            [v for v in values if v.__class__ is not dict and v.__class__ is not list]
        ):
            return False
        if not below:
            return True
        level = below
    return False
