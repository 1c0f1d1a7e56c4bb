"""Pydantic's validation errors as :class:`~warroom.core.load.Problem` items: one message per error, in the
drill's own words (what is wrong, at which value, how to fix it), at the YAML node the error concerns."""

from __future__ import annotations

from enum import Enum
from typing import Any

from yaml.nodes import Node, ScalarNode

from warroom.core.load._loctypes import is_model, kind_of, union_members, unwrap, walk_loc
from warroom.core.load._problems import Problem, problem_at
from warroom.core.load._yaml.hints import cut, number_hint, show_value, yaml_hint
from warroom.core.load._yaml.pos import locate
from warroom.core.model import PATH_PATTERN, TEXT_PATTERN
from warroom.core.text import clean, is_valid_id, plural, shown_id, vocabulary_hint

_ITEM_NAMES = {
    "plan": "plan step",
    "trace": "trace event",
    "replan": "re-plan event",
    "entries": "damage entry",
    "distractors": "distractor",
    "evidence": "evidence item",
    "cascade": "cascade item",
    "tags": "tag",
}


def _num(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if isinstance(x, int):
        return f"{x:,}" if abs(x) >= 10_000 else str(x)
    return f"{x:g}" if isinstance(x, float) else str(x)


#: What an upper bound of the format limits, by the key of the value (shown with the limit).
_LIMITS = {
    "input_tokens": "tokens in one model call",
    "output_tokens": "tokens in one model call",
    "input_usd_per_mtok": "a price, in USD per million tokens",
    "output_usd_per_mtok": "a price, in USD per million tokens",
    "t": "drill time, in seconds",
    "deadline": "drill time, in seconds",
    "duration_ms": "one tool call's duration, in milliseconds",
    "amount": "one damage amount",
    "version": "a drill revision",
}


def _label(data: Any, path: tuple[Any, ...]) -> str:
    """A human name for the value at ``path``.

    E.g. "the drill", "`briefing`", "trace event `e04`", "`usage.input_tokens` of trace event `e04`",
    "`models.planner.input_usd_per_mtok`".
    """
    if not path:
        return "the drill"
    last_index = max((i for i, el in enumerate(path) if isinstance(el, int)), default=-1)
    if 0 <= last_index < len(path) - 1:
        keys = ".".join(str(el) for el in path[last_index + 1 :])
        return f"`{keys}` of {_item_label(data, path[: last_index + 1])}"
    if last_index == len(path) - 1:
        return _item_label(data, path)
    return "`" + ".".join(str(el) for el in path) + "`"


def _item_label(data: Any, path: tuple[Any, ...]) -> str:
    """A human name for the list item at ``path`` (whose last element is an index)."""
    value: Any = data
    for el in path:
        try:
            value = value[el]
        except (KeyError, IndexError, TypeError):
            value = None
            break
    last = path[-1]
    if isinstance(last, int):
        parent = path[-2] if len(path) > 1 and isinstance(path[-2], str) else ""
        noun = _ITEM_NAMES.get(parent, f"item of `{parent}`" if parent else "item")
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            return f"{noun} `{value['id']}`"
        return f"{noun} #{last + 1}"
    return f"`{last}`"


def _model_label(model: Any) -> str:
    kind = kind_of(model)
    if kind:
        return f"{'an' if kind[0] in 'aeiou' else 'a'} `{kind}` event"
    return ""



_TYPE_WORDS = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "dict_type": "a mapping (key: value lines)",
    "model_type": "a mapping (key: value lines)",
    "model_attributes_type": "a mapping (key: value lines)",
    "list_type": "a list",
    "finite_number": "a finite number",
}


#: Most misspelt words of the vocabulary (unknown keys, event kinds, values of a fixed set) one drill's problems
#: offer a did-you-mean for: the first ones, as for references (docs/authoring.md), so that a file of a million
#: unknown keys stays linear (each hint is a fuzzy match against the allowed words).
MAX_VOCABULARY_HINTS = 20
_VOCABULARY_ERRORS = ("extra_forbidden", "union_tag_invalid", "enum", "literal_error")


def pydantic_problems(path: str, root: Node, data: Any, errors: list[dict[str, Any]]) -> list[Problem]:
    """Each of pydantic's ``errors`` as a Problem (:func:`pydantic_problem`), the first
    :data:`MAX_VOCABULARY_HINTS` misspelt words with a did-you-mean."""
    found, hinted = [], 0
    for err in errors:
        vocabulary = err.get("type") in _VOCABULARY_ERRORS
        found.append(pydantic_problem(path, root, data, err, suggest=not vocabulary or hinted < MAX_VOCABULARY_HINTS))
        hinted += vocabulary
    return found


def pydantic_problem(path: str, root: Node, data: Any, err: dict[str, Any], suggest: bool = True) -> Problem:
    """:func:`_problem_of`, or a plainer message at the same place should building the message fail: a
    drill file must never lead to "internal error". ``suggest=False``: no did-you-mean for a misspelt word of the
    vocabulary (the loader hints only the first few, so that a file of many unknown keys stays linear)."""
    try:
        return _problem_of(path, root, data, err, suggest)
    except Exception:
        data_path, _ = walk_loc(tuple(err.get("loc", ())))
        node, _ = locate(root, data_path)
        return problem_at(path, node, f"{_label(data, data_path)}: {clean(str(err.get('msg', err.get('type'))))}")


def _problem_of(path: str, root: Node, data: Any, err: dict[str, Any], suggest: bool) -> Problem:
    """One pydantic error as a Problem at the node it concerns."""
    etype: str = err["type"]
    data_path, owners = walk_loc(tuple(err["loc"]))
    ctx = err.get("ctx") or {}
    if etype == "missing":
        return _missing(path, root, data, data_path, owners)
    if etype == "extra_forbidden":
        return _extra(path, root, data, data_path, owners, suggest)
    if etype in ("union_tag_invalid", "union_tag_not_found"):
        return _union_tag(path, root, data, etype, ctx, data_path, owners, suggest)
    node, _ = locate(root, data_path)
    value_node, _ = locate(root, data_path, block_key=False)
    value = err.get("input")
    label = _label(data, data_path)
    at = ctx.get("at")  # a rule of a mapping about one of its keys (`origin_step` where it does not belong)
    if isinstance(at, str) and isinstance(value, dict) and at in value:
        node, _ = locate(root, (*data_path, at), want_key=True)
    shown = show_value(value_node, value)
    if etype in ("enum", "literal_error"):
        return problem_at(path, node, _choice_message(ctx, data_path, owners, value, value_node, label, shown, suggest))
    if etype == "float_type" and isinstance(value, int) and not isinstance(value, bool):  # a whole number past
        # what a float holds (about 1.8e308): it is a number, too large for one
        return problem_at(path, node, f"{label} is too large a number, got {shown} (past about 1.8e308, the "
                                      "largest a number may be)")  # fmt: skip
    if etype in _TYPE_WORDS:
        hint = yaml_hint(value_node) if etype == "string_type" else number_hint(value_node)
        if etype in ("model_type", "dict_type") and not hint:
            hint = _mapping_example(owners[-1] if owners else None, data_path)
        return problem_at(path, node, f"{label} must be {_TYPE_WORDS[etype]}, got {shown}{hint}")
    message = _text_message(etype, ctx, data_path, value, label, shown)
    if message is None:
        message = _bound_message(etype, ctx, data_path, label, shown)
    if message is None:  # a rule's own message; what the value was adds nothing when it is a mapping or a list
        got = f", got {shown}" if isinstance(value_node, ScalarNode) or value_node is None else ""
        message = f"{label}: {err.get('msg', etype)}{got}"
    return problem_at(path, node, message)


def _hint(wanted: bool, word: Any, choices: list[str]) -> str:
    """:func:`vocabulary_hint` when ``wanted``, else ""."""
    return vocabulary_hint(word, choices) if wanted else ""


def _mapping_example(model: Any, data_path: tuple[Any, ...]) -> str:
    """A hint where a mapping was expected and something else was written (``all_clear: true``): the mapping to
    write, with the model's required keys (``; write `all_clear: {debrief: ...}` ``), else ""."""
    if not is_model(model) or not data_path or not isinstance(data_path[-1], str):
        return ""
    required = [name for name, field in model.model_fields.items() if field.is_required()]
    if not required:
        return ""
    keys = ", ".join(f"{name}: ..." for name in required)
    return f"; write `{data_path[-1]}: {{{keys}}}` (see its keys in docs/authoring.md)"


def _missing(path: str, root: Node, data: Any, data_path: tuple[Any, ...], owners: list[Any]) -> Problem:
    """A required key that is missing, at the mapping that lacks it."""
    parent_path = data_path[:-1]
    node, _ = locate(root, parent_path)
    label = _label(data, parent_path)
    kind = kind_of(owners[-2]) if len(owners) > 1 else None
    where = f"{label} (`{kind}` event)" if kind and "event" in label else label
    return problem_at(path, node, f"{where} is missing the required key `{data_path[-1]}`")


def _extra(path: str, root: Node, data: Any, data_path: tuple[Any, ...], owners: list[Any], suggest: bool) -> Problem:
    """An unknown key, at the key, with the allowed keys and a did-you-mean."""
    node, _ = locate(root, data_path, want_key=True)
    owner = owners[-2] if len(owners) > 1 else None
    allowed = sorted(owner.model_fields) if owner is not None and is_model(owner) else []
    kind = _model_label(owner)
    where = f" in {kind}" if kind else f" in {_label(data, data_path[:-1])}"
    key = data_path[-1]
    others = _kinds_with_key(key) if kind_of(owner) else []
    hint = (
        f"`{key}` is a key of {_kind_list(others)} events, not of this one; " if others
        else _hint(suggest, key, allowed)
    )
    msg = f"unknown key {shown_id(key)}{where}; {hint}allowed keys: {', '.join(allowed)}"
    return problem_at(path, node, msg)


def _kinds_with_key(key: Any) -> list[str]:
    """The trace event kinds that have the key ``key`` (``usage``: the model calls), in the format's order."""
    from warroom.core.model import TraceEvent

    return [k for m in union_members(unwrap(TraceEvent)) if (k := kind_of(m)) and key in m.model_fields]


def _kind_list(kinds: list[str]) -> str:
    """``tool_call``, ``a and b`` or ``a, b or c`` for a message."""
    shown = [f"`{k}`" for k in kinds]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _union_tag(
    path: str, root: Node, data: Any, etype: str, ctx: dict[str, Any], data_path: tuple[Any, ...], owners: list[Any],
    suggest: bool,
) -> Problem:
    """A trace event without a ``kind``, or with an unknown one."""
    expected = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",") if t.strip()]
    if not expected:
        members = union_members(unwrap(owners[-1]))
        expected = [k for k in (kind_of(m) for m in members) if k]
    label = _label(data, data_path)
    if etype == "union_tag_not_found":
        node, _ = locate(root, data_path)
        return problem_at(path, node, f"{label} has no `kind`; add one of: {', '.join(expected)}")
    node, _ = locate(root, (*data_path, "kind"))
    tag = node.value if isinstance(node, ScalarNode) else None
    shown = shown_id(tag) if tag is not None else show_value(node, None)  # escaped and cut short, as an id
    msg = f"unknown event kind {shown} in {label}; {_hint(suggest, tag, expected)}the kinds are: {', '.join(expected)}"
    return problem_at(path, node, msg)


def _choice_message(
    ctx: dict[str, Any], data_path: tuple[Any, ...], owners: list[Any], value: Any, value_node: Node, label: str,
    shown: str, suggest: bool,
) -> str:
    """The message of a value that is not one of a fixed set (an enum or a literal)."""
    expected_text = str(ctx.get("expected", ""))
    choices = [c.strip().strip("'") for c in expected_text.replace(" or ", ", ").split(",") if c.strip()]
    target = unwrap(owners[-1])
    if isinstance(target, type) and issubclass(target, Enum):
        choices = [m.value for m in target]
    if data_path == ("schema_version",):
        msg = f"schema_version must be {expected_text}, got {shown} (this warroom reads format versions 1 and 2)"
        return msg + number_hint(value_node)
    # "unknown value `done`", never "unknown value the text `done`", however the value was quoted
    word = f"`{cut(value_node.value)}`" if isinstance(value_node, ScalarNode) and value_node.value else shown
    if isinstance(value, str) and value and not (value.isascii() and value.isprintable()):
        word = shown_id(value)  # `plan\u200b` (zero width space U+200B): "unknown value `plan`; did you mean `plan`?"
    if data_path[-2:] == ("fault", "kind"):
        msg = f"unknown fault kind {word}; {_hint(suggest, value, choices)}the fault kinds are: {', '.join(choices)}"
    else:
        msg = f"unknown value {word} for {label}; {_hint(suggest, value, choices)}allowed: {', '.join(choices)}"
    if isinstance(value_node, ScalarNode) and value_node.value in choices:  # e.g. an unquoted `no` meant as text
        return msg + yaml_hint(value_node)
    return msg + number_hint(value_node)


def _text_message(
    etype: str, ctx: dict[str, Any], data_path: tuple[Any, ...], value: Any, label: str, shown: str
) -> str | None:
    """The message of a text that breaks a rule of its own (blank, not an id, too short or long), else None."""
    if etype == "string_pattern_mismatch" and ctx.get("pattern") == TEXT_PATTERN:
        return f"{label} must not be blank: write some text, not only spaces or line breaks"
    if etype == "string_pattern_mismatch" and ctx.get("pattern") == PATH_PATTERN:
        return (f"{shown} is not a field path for {label}: keys joined by `.`, list indexes as `[n]` "
                "(`data.next_cursor`, `items[3].id`)")
    if etype == "string_pattern_mismatch":
        which = "" if data_path[-1] == "id" else f" for {label}"
        if isinstance(value, str) and len(value) <= 200 and not (value.isascii() and value.isprintable()):
            shown = shown_id(value)  # a look-alike letter or an invisible character, escaped and named
        return (
            f"{shown} is not a valid id{which}: use letters, digits, `-`, `_` and `.`, starting with a letter or digit"
        )
    if etype == "string_too_short":
        return f"{label} must not be empty"
    if etype == "string_too_long":
        return f"{label} is too long: at most {ctx.get('max_length')} characters"
    if etype == "too_short":
        least = plural(int(ctx.get("min_length") or 0), "item")
        return f"{label} needs at least {least}{_too_short_hint(data_path, value)}"
    return None


def _too_short_hint(data_path: tuple[Any, ...], value: Any) -> str:
    """What to write instead of a comparison (``all_of``) of fewer than two events: its one event alone."""
    if not data_path or data_path[-1] != "all_of":
        return ""
    one = value[0] if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str) else None
    item = f"`{clean(one)}`" if one is not None and is_valid_id(one) else "the event's id"
    return f": a comparison is of two or more events; one event is evidence on its own (write {item} as the item)"


_BOUNDS = {
    "greater_than_equal": ("at least", "ge"),
    "greater_than": ("greater than", "gt"),
    "less_than_equal": ("at most", "le"),
    "less_than": ("less than", "lt"),
}


def _bound_message(etype: str, ctx: dict[str, Any], data_path: tuple[Any, ...], label: str, shown: str) -> str | None:
    """The message of a number beyond a bound of the format (with what the bound limits), else None."""
    if etype not in _BOUNDS:
        return None
    words, key = _BOUNDS[etype]
    limit = _num(ctx.get(key))
    what = _LIMITS.get(str(data_path[-1])) if key in ("le", "lt") and data_path else None
    if what:
        limit += f" (the drill format's limit for {what})"
    return f"{label} must be {words} {limit}, got {shown}"
