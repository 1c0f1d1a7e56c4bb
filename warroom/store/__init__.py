"""The store: what a trainee did, kept so that nothing is lost.

- :mod:`warroom.store.journal._file`: the append-only session journal (one JSON line per trainee action, fsynced).
- :mod:`warroom.store.results._records`: the pydantic models every journal line and stored row is checked with.
- :mod:`warroom.store.results._store`: the SQLite results store (one row per finished or abandoned session), made of
  :mod:`~warroom.store.results._connection`, :mod:`~warroom.store.results._writes`, :mod:`~warroom.store.results._queries` and
  :mod:`~warroom.store.summaries`, with its values in :mod:`~warroom.store.results._rows` and errors in
  :mod:`~warroom.store.errors`.
- :mod:`warroom.store.backends._dialect`: the store URL (``--store`` / ``$WARROOM_STORE``: SQLite or PostgreSQL), its
  redaction, and where the SQL of the two back ends differs; :mod:`warroom.store.backends._postgres` connects to PostgreSQL
  (psycopg 3); :mod:`warroom.store.results._transfer` exports and imports stored sessions as JSON Lines;
  :mod:`warroom.store.backends._roles` sets up who sees which sessions in PostgreSQL (row-level security).
- :mod:`warroom.store.datadir`: checks that a data directory can be used, with messages that say what to do.
- :mod:`warroom.store.journal._recorder`: :class:`~warroom.store.journal.SessionRecorder` (journal + store for one live
  session); :mod:`warroom.store.review._drill` finds and loads a session's drill; :mod:`warroom.store.journal._deletion`
  deletes stored sessions (:func:`~warroom.store.journal.delete_sessions`).
- :mod:`warroom.store.journal._recovery`: :func:`~warroom.store.journal.recover_unfinished` (sessions killed mid-drill
  recorded as abandoned; journals that can never be recovered quarantined).
- :mod:`warroom.store.review._review`: the after-action review timeline of a stored session (pure, no Textual).

Layout of a data directory::

    DATA_DIR/results.sqlite3            the results store (WAL mode)
    DATA_DIR/journals/ID.jsonl          journals of sessions being played (or killed mid-drill)
    DATA_DIR/journals/done/ID.jsonl     journals of finished or recovered sessions (kept; removed only by a delete)
    DATA_DIR/journals/unreadable/       journals without a readable start line (kept for a human to look at)
    DATA_DIR/journals/quarantine/       journals that can never be recovered as they are, with ID.jsonl.why.txt
"""
