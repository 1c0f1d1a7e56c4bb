"""Where a value of a drill is written: data paths (keys and list indexes) mapped back to YAML nodes, whose
start marks give the 1-based ``line:col`` of a problem. Also where a composed node tree comes from
(:func:`compose_text`) and :func:`position_of` for rules across files.

A node reached through an alias (``*name``) is placed where that alias is written (the alias marks the composer
records, by root node in :data:`ALIAS_MARKS`); a block mapping or list that is the value of a key is placed at its
key. A mapping's keys are indexed once per node, so locating many values in one big mapping stays linear.
"""

from __future__ import annotations

import os
import re
import weakref
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warroom.core.files import read_limited
from warroom.core.load import limits
from warroom.core.load._problems import DrillLoadError, Problem, fail
from warroom.core.load._yaml import core as yc
from warroom.core.load._yaml.read import YamlSyntaxError, compose

try:  # libyaml's parser: about ten times faster than the pure-Python one
    from yaml import CSafeLoader as _YamlLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _YamlLoader  # type: ignore[assignment]

_NULL, _MERGE = yc.NULL, yc.MERGE


def position_of(path: str | os.PathLike[str], loc: tuple[str | int, ...]) -> tuple[int, int]:
    """The 1-based ``(line, column)`` of the value at data path ``loc`` (keys and list indexes, e.g. ``("id",)``)
    in the drill file at ``path``, as the loader reports problems there.

    For rules that need more than one file (see :func:`warroom.core.library.cross_file_problems`). Reads the file
    again; returns ``(1, 1)`` when it cannot be read or parsed, or the value is not there. Never raises.
    """
    try:
        text = read_limited(path, limits.MAX_FILE_BYTES).decode("utf-8-sig")  # size checked before reading
        root = compose_text(text, os.fspath(path))[0]
        if root is None:
            return 1, 1
        node = locate(root, tuple(loc))[0]
    except (OSError, UnicodeDecodeError, DrillLoadError):
        return 1, 1
    return node.start_mark.line + 1, node.start_mark.column + 1



def compose_text(text: str, path: str) -> tuple[Node | None, dict[tuple[int, Any], Any]]:
    try:
        return compose(text, _YamlLoader)
    except YamlSyntaxError as e:
        raise DrillLoadError(path, [Problem(path, e.line, e.column, e.message)]) from None
    except RecursionError:  # the pure-Python composer on absurdly deep nesting
        fail(path, f"nested too deeply: at most {limits.MAX_DEPTH} levels of mappings and lists are allowed (a drill "
                   "needs about 6); remove the extra levels")


def named_top_key(root: MappingNode, message: str) -> Node:
    """Where a problem of the whole drill is reported: at a top-level key written with a null value that the message
    names (``answer_key: null`` for "the drill needs an answer_key"), else at the start of the drill."""
    for key_node, value_node in root.value:
        if (
            isinstance(key_node, ScalarNode)
            and isinstance(value_node, ScalarNode)
            and value_node.tag == _NULL
            and re.search(rf"\b{re.escape(key_node.value)}\b", message)
        ):
            return key_node
    return root



def key_index(node: MappingNode) -> tuple[dict[str, tuple[Node, Node]], list[Node]]:
    """A mapping node's own keys (the first of each, as text) and its merge values, indexed once per node so that
    locating many values in one big mapping stays linear."""
    index = getattr(node, "_warroom_keys", None)
    if index is None:
        own: dict[str, tuple[Node, Node]] = {}
        merges: list[Node] = []
        for k, v in node.value:
            if k.__class__ is not ScalarNode:
                continue
            if k.tag == _MERGE:
                merges.append(v)
            else:
                own.setdefault(k.value, (k, v))
        index = (own, merges)
        node._warroom_keys = index  # type: ignore[attr-defined]
    return index


def mapping_pair(node: MappingNode, key: str, seen: set[int] | None = None) -> tuple[Node, Node] | None:
    """The (key node, value node) of ``key`` in a mapping node: its own keys first, then merged mappings."""
    if len(node.value) <= 16:  # a scan beats building an index
        merges = []
        for k, v in node.value:
            if k.__class__ is not ScalarNode:
                continue
            if k.tag == _MERGE:
                merges.append(v)
            elif k.value == key:
                return k, v
    else:
        own, merges = key_index(node)
        if key in own:
            return own[key]
    seen = seen if seen is not None else set()
    for merge in merges:
        for source in merge.value if merge.__class__ is SequenceNode else [merge]:
            if source.__class__ is MappingNode and id(source) not in seen:
                seen.add(id(source))
                found = mapping_pair(source, key, seen)
                if found:
                    return found
    return None


def locate(root: Node, loc: tuple[Any, ...], want_key: bool = False, block_key: bool = True) -> tuple[Node, int]:
    """The node at data path ``loc`` (keys and list indexes), or the deepest node on the way that exists.

    Returns ``(node, depth)`` where ``depth`` is how many elements of ``loc`` were followed. With ``want_key``, a
    final mapping key is located at the key itself rather than its value. A block mapping or list that is the value
    of a key is located at its key (``briefing:``), which is where an author looks for it (unless ``block_key`` is
    false). A node reached through an alias (``*name``) is located where that alias is written, not at its anchor.
    """
    marks = ALIAS_MARKS.get(root, {})
    node: Node = root
    key_node: Node | None = None
    via = None
    depth = 0
    for depth, el in enumerate(loc):
        if isinstance(node, MappingNode) and isinstance(el, str):
            pair = mapping_pair(node, el)
            if pair is None:
                return yc.placed_at((_block_at_key(node, key_node) if block_key else node), via), depth
            if want_key and depth == len(loc) - 1:
                return yc.placed_at(pair[0], via), depth + 1
            via = marks.get((id(node), id(pair[0])), _merge_alias(node, pair[0], marks, via))
            key_node, node = pair
        elif isinstance(node, SequenceNode) and isinstance(el, int) and 0 <= el < len(node.value):
            via = marks.get((id(node), el), via)
            key_node, node = None, node.value[el]
        else:
            return yc.placed_at((_block_at_key(node, key_node) if block_key else node), via), depth
    return yc.placed_at((_block_at_key(node, key_node) if block_key else node), via), len(loc)


def _merge_alias(node: MappingNode, key: Node, marks: dict[tuple[int, Any], Any], via: Any) -> Any:
    """Where the alias is written (``<<: *defaults``) through which ``key`` was merged into ``node``; ``via`` when
    ``key`` is written in ``node`` itself or was not merged through an alias."""
    if not marks or any(k is key for k, _ in node.value):
        return via
    for k, v in node.value:
        if k.__class__ is not ScalarNode or k.tag != _MERGE:
            continue
        sources = list(enumerate(v.value)) if v.__class__ is SequenceNode else [(None, v)]
        for i, source in sources:
            if source.__class__ is MappingNode and mapping_pair(source, key.value) is not None:
                mark = marks.get((id(node), id(k))) if i is None else marks.get((id(v), i))
                return mark if mark is not None else via
    return via


#: The alias marks of each composed drill (see :class:`warroom.core.load._yaml.core.AliasMarks`), by root node.
ALIAS_MARKS: weakref.WeakKeyDictionary[Node, dict[tuple[int, Any], Any]] = weakref.WeakKeyDictionary()


def _block_at_key(node: Node, key_node: Node | None) -> Node:
    if key_node is not None and isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style:
        return key_node
    return node
