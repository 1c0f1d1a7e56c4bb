"""The results store: one row per finished (or abandoned) session, on SQLite or PostgreSQL. :class:`ResultsStore` is
the one class (``_store``), made of its parts: the open, checked and migrated connection (``_connection``, with the
schema's migrations in ``_migrations``), the writes (``_writes``: store, re-score with its history, delete), the
reads (``_queries``). A stored row is :class:`SessionRow` / :class:`StoredSession` (``_rows``), checked with the
pydantic models of ``_records`` on every write and read; the SQL checks and the "can be counted" flag of the
statistics (``_checks``, ``_countable``), the distractor figures' columns
(``_distractors``), the trial's response column (``_responses``), the scorecard history (``_history``), which
sessions are not verified (``_verification``) and export / import as JSON Lines (``_transfer``). The store's
timestamps are :mod:`warroom.store.timestamps`.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
