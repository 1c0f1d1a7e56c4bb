"""The Textual terminal UI, a thin view over :class:`warroom.core.play.Replay`. Each job has its folder:

- ``app/``: the apps (war room, review, author mode), how they start, and leaving when the terminal goes;
- ``flow.py``: the messages a screen posts to move the trainee on (the app handles them);
- ``screens/``: the drill picker, the briefing, the debrief and the review;
- ``room/``: the war room (the drill clock, the session, the tutorial) and its dialogs (escalation, probes, flags);
- ``author/``: the author mode (``warroom annotate``);
- ``widgets/``: the trace table, the inspector, the status bar, meters and plan, the footer, the help;
- ``render/``: Rich text of drill data and of each trace event kind (no Textual);
- ``logic/``: services, picker entries, recording, drill sets, tutorial lessons, the trace index (no Textual, no
  Rich);
- ``warroom.tcss``: the one stylesheet.

Each folder's API is its ``__init__.pyi``; its modules are private. A folder imports only the folders listed after
it (import-linter's layers, pyproject.toml); nothing in :mod:`warroom.core` imports this package.
"""
