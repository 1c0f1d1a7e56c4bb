"""The root of warroom's exception tree (see docs/architecture.md, "Errors").

Every error warroom raises on purpose for bad input or an unusable state derives from :class:`WarroomError`, so a
front end can catch the one root and report it the same way everywhere.
"""

from __future__ import annotations

__all__ = ["SettingsError", "WarroomError"]


class WarroomError(Exception):
    """An error meant for a person, not a traceback.

    What the CLI and the TUI show: ``str(error)``, as it is (one or more lines, e.g. ``path:line:col: message``
    lines for a drill that does not load; text from a drill is escaped by the printer, never here). The CLI exits
    with :attr:`exit_code`: 1 for bad input or an unusable file or store (the default), 2 for a usage error (a bad
    option value). Subclasses that also derive from a builtin (``ValueError``) keep existing ``except ValueError``
    sites working.
    """

    #: Exit status of a ``warroom`` command that stops on this error.
    exit_code: int = 1


class SettingsError(WarroomError, ValueError):
    """A setting from the command line or the environment cannot be used (e.g. a trainee name holding control
    characters). A usage error: exit status 2."""

    exit_code = 2
