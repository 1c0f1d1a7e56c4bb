"""A PostgreSQL network that goes silent (issue 30, item 8): the tests' own TCP proxy in front of the test server
stops answering (it keeps accepting and acknowledging, and forwards nothing), before a connection or in the middle
of one. Connecting gives up after the connect timeout, a statement after the statement timeout, and a finished
session goes to the local queue; `warroom store sync` delivers it once the network answers again."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import PostgresServer
from store_support import bundled_drill_path, load

from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.scoring import score
from warroom.store.backends import _postgres
from warroom.store.errors import StoreUnreachable
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore


class SilentProxy:
    """A TCP proxy on 127.0.0.1 to the test server's Unix socket; ``silent`` True: it forwards nothing either way
    (but keeps reading, so the kernel still acknowledges what a client sends), for connections open and new."""

    def __init__(self, socket_path: Path) -> None:
        self.socket_path = str(socket_path)
        self.silent = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX)
            server.connect(self.socket_path)
            self.open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
                if not data:
                    return
                if not self.silent:
                    sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self.listener.close()
        for s in self.open:
            s.close()


@pytest.fixture
def proxy(postgres_server: PostgresServer, store_url: str):
    p = SilentProxy(postgres_server.folder / ".s.PGSQL.5432")
    yield p, store_url.replace(f"?host={postgres_server.folder}", f"?host=127.0.0.1&port={p.port}").replace(
        "@/", "@127.0.0.1/"
    ).replace("?host=127.0.0.1&", "?")
    p.close()


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """Timeouts of a few seconds (the promise is the same at 10 and 30 s)."""
    monkeypatch.setattr(_postgres, "CONNECT_TIMEOUT_S", 2)
    monkeypatch.setattr(_postgres, "STATEMENT_TIMEOUT_S", 2.0)


def _play(data: Path) -> SessionRecorder:
    path = bundled_drill_path()
    drill = load(path)
    rec = SessionRecorder.start(data, "ann", path, drill)
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    return rec


def test_the_proxy_reaches_the_server(tmp_path: Path, proxy):
    _, url = proxy
    with ResultsStore(tmp_path, url=url) as store:
        assert store.count() == 0


def test_a_silent_network_before_connecting_queues_the_session_within_the_connect_timeout(
    tmp_path: Path, proxy, monkeypatch
):
    p, url = proxy
    monkeypatch.setenv("WARROOM_STORE", url)
    rec = _play(tmp_path)
    p.silent = True
    started = time.monotonic()
    rec.finish(score(rec.drill, rec.actions))
    assert rec.queued and time.monotonic() - started < 30  # not frozen (connect timeout 2 s here, 10 s by default)
    assert (tmp_path / "journals" / f"{rec.session_id}.jsonl").exists()
    p.silent = False
    result = CliRunner().invoke(main, ["store", "sync", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0 and "1 session delivered; 0 still waiting" in result.output, result.output
    with ResultsStore(tmp_path, url=url) as store:
        assert [r.session_id for r in store.query()] == [rec.session_id]


def test_a_network_that_goes_silent_mid_statement_is_given_up_within_the_statement_timeout(tmp_path: Path, proxy):
    p, url = proxy
    with ResultsStore(tmp_path, url=url) as store:
        p.silent = True
        started = time.monotonic()
        with pytest.raises(StoreUnreachable, match="no answer from the server within 2 s"):
            store.count()
        assert time.monotonic() - started < 30


def test_a_session_finished_while_the_network_goes_silent_mid_write_is_queued(tmp_path: Path, proxy, monkeypatch):
    """The store opens (connected, migrated), then the network goes silent before the session's insert answers:
    the war room is not frozen, the session waits in the local queue and is delivered once."""
    p, url = proxy
    monkeypatch.setenv("WARROOM_STORE", url)
    rec = _play(tmp_path)
    real_insert = ResultsStore.insert

    def silent_then_insert(self, *args, **kwargs):
        p.silent = True  # after connecting: the insert itself has no answer
        return real_insert(self, *args, **kwargs)

    monkeypatch.setattr(ResultsStore, "insert", silent_then_insert)
    started = time.monotonic()
    rec.finish(score(rec.drill, rec.actions))
    assert rec.queued and time.monotonic() - started < 30
    monkeypatch.setattr(ResultsStore, "insert", real_insert)
    p.silent = False
    for _ in range(2):  # delivered, and once only (the insert may have reached the server before the silence)
        result = CliRunner().invoke(main, ["store", "sync", "--data-dir", str(tmp_path)])
        assert result.exit_code == 0, result.output
    with ResultsStore(tmp_path, url=url) as store:
        assert [r.session_id for r in store.query()] == [rec.session_id]
