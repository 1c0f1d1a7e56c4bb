"""A real PostgreSQL server for the store tests: the ``postgres_server`` fixture (one per pytest-xdist worker) and
``store_url`` (an empty schema of it per test, so the tests never see each other's rows).

The server is the machine's own (``/usr/lib/postgresql/*/bin``, else ``pg_config --bindir``, else ``PATH``): ``initdb``
into a temporary folder, then ``pg_ctl start`` listening only on a Unix socket in that folder (no TCP port), with
trust authentication for the one user ``warroom``. PostgreSQL refuses to run as root, so under root it runs as the
unprivileged user ``nobody`` (``runuser``). The tests skip with the reason when the server binaries are missing,
unless ``WARROOM_TEST_POSTGRES=require`` (set by ``.ci/run``), which makes that a failure.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

#: ``require``: a missing server is a failure, not a skip (read once: the suite clears WARROOM_* per test).
REQUIRE = os.environ.get("WARROOM_TEST_POSTGRES", "") == "require"
#: The database user the tests connect as (trust authentication on the server's socket).
USER = "warroom"


def server_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` (the newest version installed), or None."""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if Path(candidate, "initdb").exists() and Path(candidate, "pg_ctl").exists():
            return Path(candidate)
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if out and Path(out, "initdb").exists():
            return Path(out)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """A PostgreSQL server in its own temporary folder, on a Unix socket in that folder."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="wr-pg-"))  # short: a socket path has at most 107 bytes
        self.data = self.folder / "data"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            self._as_user = ["runuser", "-u", "nobody", "--"]
            shutil.chown(self.folder, "nobody")

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as_user, *args], capture_output=True, text=True, check=False, cwd="/")
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        """Create the cluster (first time) and start the server."""
        if not self.data.exists():
            self._run(
                str(self.bindir / "initdb"), "-D", str(self.data), "-U", USER, "--auth=trust", "--encoding=UTF8",
                "--locale=C.UTF-8", "--no-sync",
            )  # fmt: skip
        options = f"-k {self.folder} -c listen_addresses='' -c fsync=off -c max_connections=200"
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w", "-t", "60",
            "-o", options, "start",
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres", schema: str | None = None) -> str:
        """The connection URL of ``database`` (with ``schema`` first on the search path)."""
        url = f"postgresql://{USER}@/{database}?host={quote(str(self.folder), safe='/')}"
        if schema:
            url += "&options=" + quote(f"-c search_path={schema}", safe="")
        return url

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def remove(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def _missing(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"{reason} (WARROOM_TEST_POSTGRES=require)")
    pytest.skip(reason)


def _new_server() -> PostgresServer:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _missing("psycopg is not installed: pip install -e '.[test]'")
    bindir = server_bindir()
    if bindir is None:
        _missing("the PostgreSQL server binaries (initdb, pg_ctl) are not installed (apt-get install postgresql)")
    assert bindir is not None
    server = PostgresServer(bindir)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(server.folder, ignore_errors=True)
        raise
    return server


def _server_until_done() -> Iterator[PostgresServer]:
    """A new running server, removed (stopped, its folder deleted) when the fixture using it ends."""
    server = _new_server()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A running PostgreSQL server for this test process (each xdist worker starts its own)."""
    yield from _server_until_done()


@pytest.fixture
def own_postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for one test alone, which it may stop and start (fault tests)."""
    yield from _server_until_done()


@pytest.fixture
def store_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty schema on the test server: a store of its own for one test."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    postgres_server.sql(f"CREATE SCHEMA {schema}")
    return postgres_server.url(schema=schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend_url(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """Each back end in turn: None (the data directory's SQLite file, as by default) or the URL of a new PostgreSQL
    schema, also set as ``$WARROOM_STORE`` so that every store opened by the test (recorder, commands) uses it."""
    if request.param == "sqlite":
        return None
    url = str(request.getfixturevalue("store_url"))
    monkeypatch.setenv("WARROOM_STORE", url)
    return url


#: For a test in a module run on both back ends that is about the SQLite file itself (its bytes, a store per data
#: directory): run it on SQLite only.
sqlite_only = pytest.mark.parametrize("backend_url", ["sqlite"], indirect=True)


def as_role(url: str, role: str) -> str:
    """``url`` connecting as the login role ``role`` (the test server trusts its socket)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, f"{role}@{parts.netloc.split('@', 1)[1]}", parts.path, parts.query, ""))


def group_roles(store_url: str) -> tuple[str, str]:
    """The store's two group roles that ``warroom store secure`` makes for the store at ``store_url``: a schema of
    its own (``store_url``) gets roles of its own, ``warroom_trainee_SCHEMA`` and ``warroom_facilitator_SCHEMA``."""
    from urllib.parse import unquote

    from warroom.store.backends import roles_for

    query = unquote(urlsplit(store_url).query)
    schema = query.split("search_path=", 1)[1].split("&", 1)[0] if "search_path=" in query else None
    trainee, facilitator = roles_for(schema)
    return trainee, facilitator


def secured_roles(server: PostgresServer, store_url: str, data_dir: Path) -> tuple[str, str]:
    """The store at ``store_url`` secured (``warroom store secure``) and two new login roles in it: a trainee
    ``ann_*`` and a facilitator ``fac_*``; their names."""
    from click.testing import CliRunner

    from warroom.cli import main

    tag = uuid.uuid4().hex[:8]
    ann, fac = f"ann_{tag}", f"fac_{tag}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(data_dir)])
    assert secured.exit_code == 0, secured.output
    trainees, facilitators = group_roles(store_url)
    server.sql(f"CREATE ROLE {ann} LOGIN IN ROLE {trainees}")
    server.sql(f"CREATE ROLE {fac} LOGIN IN ROLE {facilitators}")
    return ann, fac
