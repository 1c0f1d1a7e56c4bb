"""Importers: real agent traces turned into drills (``warroom import NAME``; docs/importing.md).

Each importer maps one trace format onto the drill format and fills in, openly, what the trace lacks (the drill
clock, token counts, prices; for Who&When records, the damage and the deadline too). The folders:

- ``kit/``: the importer kit and registry: the :class:`~warroom.importers.kit.Importer` protocol, the registry (a
  folder here whose API names an ``IMPORTER`` registers itself), the recognition of a file's format (one place,
  so that every refusal names the right importer), the import loop, report and progress, reading JSON within
  limits, pacing and prices, drill ids, redaction, the unmarked drill and YAML emit;
- ``spans/``: the span model and drill builder the span-based importers share; ``otlp/``: OTLP/JSON files read
  into spans (for ``otel`` and ``openinference``); ``exports/``: what the platforms' JSON exports share
  (``langsmith``, ``langfuse``, ``openai-agents``: values, record trees, chat messages);
- one folder per format, each registering itself: ``chat/``, ``otel/``, ``openinference/``, ``langsmith/``,
  ``langfuse/``, ``openai_agents/``, ``who_and_when/``.

A format folder imports the kit and the shared folders, never another format (import-linter checks it). The names
a trace's values are compared with are tuples, never sets: ``in`` compares and never hashes, so a list where a
trace has a string is no error (tests/unit/test_import_unhashable_values.py).
"""
