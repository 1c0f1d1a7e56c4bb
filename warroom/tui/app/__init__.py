"""The terminal UI's apps and how they start: :class:`WarroomApp` (``warroom``, ``warroom run``: picker, briefing,
war room, debrief), :class:`ReviewApp` (``warroom review``) and :class:`AnnotateApp` (``warroom annotate``);
:func:`launch`, which sets the colours from the environment before Textual loads; and leaving promptly when the
terminal goes away (SIGHUP, SIGTERM, a lost terminal: :class:`ExitGuard`). The war room app owns the flow between
screens, which post it the messages of :mod:`warroom.tui.flow`; no other package of the terminal UI imports this one.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
