"""Help built from key bindings, so that the keys a screen has and the help it shows cannot disagree.

Each screen's help (``?``) and the briefing's list of war-room keys are made here from ``BINDINGS``, as the
``posting`` app does: the rows are the bindings declared by the screen's own classes and by the widgets it names in
``HELP_WIDGETS`` (e.g. the war room's trace table), each key shown once, with the binding's help text. A binding's
help text is, first found: the ``KEY_HELP`` mapping (action name to text) of the class that declared it or of a
subclass (so a subclass rewords a base widget's keys without re-declaring them), the binding's ``tooltip``, its
``description``. Bindings that Textual's own base classes declare (tab, shift+tab, copy on a screen) are not
listed; a screen that wants one in its help declares it again.

A screen class may set ``HELP_TITLE`` (the help box's title), ``HELP_NOTES`` (text under the keys),
``HELP_WIDGETS`` (widget classes whose bindings act on the screen) and ``HELP_HIDDEN`` (actions whose bindings the
help leaves out, e.g. the war room's pause in assessment mode); a screen instance may set them too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.keys import format_key

from warroom.tui.render import ascii_screen

#: Key names spelled out where Textual's footer would use a symbol (the help is read, not glanced at).
_NAMES = {"escape": "escape", "enter": "enter", "ctrl+home": "ctrl+home", "ctrl+end": "ctrl+end"}


def key_label(key: str) -> str:
    """How the help shows one key of a binding: ``up`` → ``↑``, ``question_mark`` → ``?``, ``pageup`` → ``pgup``,
    ``escape`` → ``escape``; on an ASCII screen (:func:`~warroom.tui.render.ascii_screen`) a key whose symbol is
    not ASCII by its name (``up``, not ``^``, which reads as ctrl)."""
    label = _NAMES.get(key) or format_key(key)
    return key if not label.isascii() and ascii_screen() else label


def footer_label(display: str, key: str) -> str:
    """What a footer shows for a key that Textual displays as ``display`` (``⏎`` for ``enter``): ``display``, or on
    an ASCII screen (:func:`~warroom.tui.render.ascii_screen`) the key's name ``key`` when ``display`` is not
    ASCII
    (its stand-in would mislead: ``⏎`` was written ``?``, the help key). Each app's ``get_key_display`` calls it."""
    return key if not display.isascii() and ascii_screen() else display


#: Key symbols in prose (help texts, hints, notifications, the tutorial) and their names on an ASCII screen, pairs
#: first: ``↑ ↓`` would otherwise be written ``^ v`` (ctrl, and the probe's key).
_PROSE_KEYS = (("↑↓", "up/down"), ("↑ ↓", "up down"), ("↑", "up"), ("↓", "down"), ("⏎", "enter"))


def key_prose(text: str) -> str:
    """``text`` (prose that names keys by their symbols: ``move with ↑ ↓ j k``) as the screen should show it:
    unchanged, or on an ASCII screen (:func:`~warroom.tui.render.ascii_screen`) with ``↑``, ``↓`` and ``⏎`` named
    in words (``move with up down j k``)."""
    if text.isascii() or not ascii_screen():
        return text
    for symbol, name in _PROSE_KEYS:
        text = text.replace(symbol, name)
    return text


def _own_bindings(cls: type) -> list[Binding]:
    """The bindings of ``cls`` and its warroom base classes, one per key (a key bound to two actions, e.g. space to
    pause and to resume, has two): a subclass's binding of a key to an action replaces its base's."""
    by_key: dict[tuple[str, str], Binding] = {}
    for klass in reversed(cls.__mro__):
        if not klass.__module__.startswith("warroom.") or "BINDINGS" not in vars(klass):
            continue
        declared: list[BindingType] = vars(klass)["BINDINGS"]
        for binding in Binding.make_bindings(declared):
            by_key.pop((binding.key, binding.action), None)
            by_key[binding.key, binding.action] = binding
    return list(by_key.values())


def _help_text(cls: type, binding: Binding) -> str:
    helps: dict[str, str] = getattr(cls, "KEY_HELP", {})
    return helps.get(binding.action) or binding.tooltip or binding.description


def binding_rows(cls: type, hidden: Collection[str] = ()) -> list[tuple[str, str]]:
    """(keys, what they do) rows of the keys ``cls`` (a screen or widget class) binds, in declaration order, without
    the bindings of the actions in ``hidden``; keys with the same help text share a row (e.g. ``↑ k``). A binding's
    ``key_display`` may name several keys, separated by spaces (``+ =`` for ``plus,equals_sign``, which Textual's
    footer shows as one key): each is listed once."""
    rows: dict[str, list[str]] = {}
    for binding in _own_bindings(cls):
        if binding.action in hidden:
            continue
        labels = binding.key_display.split() if binding.key_display else [key_label(binding.key)]
        keys = rows.setdefault(key_prose(_help_text(cls, binding)), [])
        keys.extend(label for label in labels if label not in keys)
    return [(" ".join(keys), text) for text, keys in rows.items()]


def help_rows(screen: type | Any, hidden: Collection[str] | None = None) -> list[tuple[str, str]]:
    """The help rows of a screen (class or instance): its own bindings, then those of its ``HELP_WIDGETS``, without
    the actions in ``hidden`` (None: the screen's ``HELP_HIDDEN``)."""
    cls = screen if isinstance(screen, type) else type(screen)
    rows = binding_rows(cls, getattr(screen, "HELP_HIDDEN", ()) if hidden is None else hidden)
    for widget in getattr(cls, "HELP_WIDGETS", ()):
        rows += [row for row in binding_rows(widget) if row not in rows]
    return rows


def key_table(rows: Iterable[tuple[str, str]]) -> Table:
    """A two-column grid of keys and what they do; a long description wraps under itself, not under the key."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column(ratio=1)
    for key, what in rows:
        table.add_row(key, what)
    return table


def help_body(rows: Sequence[tuple[str, str]], notes: str = "") -> Group:
    """The help screen's body: the key table, then ``notes`` (paragraphs, wrapped to the width)."""
    parts: list[RenderableType] = [key_table(rows)]
    if notes:
        parts.append(Text("\n" + key_prose(notes)))
    return Group(*parts)
