"""The results store's back ends: SQLite (a file in the data directory) and PostgreSQL (a shared store for a cohort,
through psycopg 3). The store URL (``--store`` / ``$WARROOM_STORE``) and where the SQL of the two differs
(``_dialect``); connecting to PostgreSQL, its schema version table and migrations (``_postgres``); why a server
refused a connection, read whatever the server's language (``_refusal``); the password kept out of every stack frame
a crash report could print (``_secret``); roles and row-level security of a shared store (``_roles``), and which
two roles are a store's own (``_role_names``).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
