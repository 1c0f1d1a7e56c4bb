"""The store: what a trainee did, kept so that nothing is lost. Its sub-packages, each imported through its API,
each importing only those below it:

- :mod:`warroom.store.journal`: the session journal (one JSON line per trainee action, fsynced), recording a live
  session, recovering sessions killed mid-drill and quarantining journals that never can be, deleting sessions;
- :mod:`warroom.store.review` and :mod:`warroom.store.cohort`: stored sessions played again on their drill (the
  after-action review, re-scoring) and the cohort statistics counted in the store;
- :mod:`warroom.store.results`: the results store (:class:`~warroom.store.results.ResultsStore`: one row per
  session, its schema and migrations, reads, writes, re-score history, export and import);
- :mod:`warroom.store.backends`: SQLite and PostgreSQL (the store URL, where their SQL differs, connecting,
  refusals, the password kept out of tracebacks, roles and row-level security);
- :mod:`warroom.store.errors` (every error of the store, under :class:`~warroom.store.errors.StoreError`) and
  :mod:`warroom.store.datadir` (the data directory's layout and checks).
"""
