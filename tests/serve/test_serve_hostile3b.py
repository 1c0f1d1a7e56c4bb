"""What campaign 3 left on ``warroom serve`` (issue 30): a ``--forwarded-allow-ips`` so wide that it trusts every
client is warned of at the start, on stderr and in the server's log (docs/serve.md)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest
from serve_support import free_port, write_roster

from warroom.serve import trusted_proxies, wide_proxies_warning

EVERY_V4 = "every IPv4 client"
BOTH = "every IPv4 client and every IPv6 client"


@pytest.mark.parametrize(("value", "trusted"), [
    ("0.0.0.0/0", EVERY_V4), ("::/0", BOTH),  # ::/0 holds ::ffff:0:0/96, IPv4 clients of an IPv6 listener
    ("0.0.0.0/1, 128.0.0.0/1", EVERY_V4), ("::ffff:0:0/96", EVERY_V4), ("::ffff:0:0/97,128.0.0.0/1", EVERY_V4),
    ("10.0.0.0/8,::1,0.0.0.0/0", EVERY_V4), ("8000::/1,::/1", BOTH),
    ("127.0.0.1", None), ("10.0.0.0/8,192.168.0.0/16", None), ("0.0.0.0/1", None), ("::ffff:0:0/97", None),
    ("2000::/3", None), ("", None),
])  # fmt: skip
def test_proxies_that_trust_every_client_of_a_family_are_named_and_no_others(value: str, trusted: str | None):
    warning = wide_proxies_warning(trusted_proxies(value))
    if trusted is None:
        assert warning is None
    else:
        assert warning == (
            f"--forwarded-allow-ips trusts {trusted} as a reverse proxy: each can write X-Forwarded-For and so "
            f"choose its own address for the sign-in limits and the server's log; name only your reverse proxies "
            f"(such as 127.0.0.1, or the proxy's own address)"
        )


def test_serve_with_every_client_as_a_proxy_warns_on_stderr_and_in_its_log(tmp_path):
    """``warroom serve --forwarded-allow-ips 0.0.0.0/0`` let any client choose the address its wrong sign-ins
    count against and the log shows, without a word: the start says so on stderr and in the log (stdout)."""
    port = free_port()
    roster = write_roster(tmp_path / "class.yaml")
    proc = subprocess.Popen(
        [sys.executable, "-m", "warroom", "--data-dir", str(tmp_path / "d"), "serve", "--roster", str(roster),
         "--port", str(port), "--forwarded-allow-ips", "0.0.0.0/0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    said = wide_proxies_warning(trusted_proxies("0.0.0.0/0"))
    assert said is not None and said.startswith(f"--forwarded-allow-ips trusts {EVERY_V4} ")
    assert f"warning: {said}\n" in err.decode()
    (logged,) = [line for line in out.decode().splitlines() if said in line]
    assert logged.endswith(f" WARNING {said}")
