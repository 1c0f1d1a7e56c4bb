"""What goes wrong when a drill is projected: :class:`ProjectionError`, whose text is one ``path:line:col: message``
line per problem (a source that is not a healthy drill, an event a template does not apply to) or one plain line
for an option that cannot be used (a bad ``--damage`` rule, an unknown template), each saying what to do."""

from __future__ import annotations

from warroom.errors import WarroomError


class ProjectionError(WarroomError):
    """A projection cannot be made: ``str(error)`` says why, as ``path:line:col: message`` lines for a place in a
    drill file, or one line for an option."""


def at(path: str, loc: tuple[str | int, ...], message: str) -> str:
    """``message`` at the value of data path ``loc`` in the drill file ``path``: ``path:line:col: message`` (line 1,
    column 1 when the file cannot be read there)."""
    from warroom.core.load import position_of
    from warroom.core.text import shown_path

    line, col = position_of(path, loc) if path != "<string>" else (1, 1)
    return f"{shown_path(path)}:{line}:{col}: {message}"  # a file name holding a newline forges no line
