"""The roster of ``warroom serve``: scrypt hashes, ``warroom serve roster add``, and bad roster files reported as
``path:line:col: message``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.cli.serve import is_loopback
from warroom.serve import AppOptions, Roster, RosterError
from warroom.serve._roster import hash_token, verify_token
from warroom.serve._server import app_command


def test_a_hash_verifies_its_token_only():
    stored = hash_token("s3cret-token")
    assert stored.startswith("scrypt$16384$8$1$")
    assert "s3cret-token" not in stored
    assert verify_token("s3cret-token", stored)
    assert not verify_token("s3cret-tokeN", stored)
    assert not verify_token("", stored)
    assert not verify_token("x" * 500, stored)  # refused without hashing
    assert hash_token("s3cret-token") != stored  # a fresh salt each time
    assert not verify_token("s3cret-token", "scrypt$3$8$1$AAAA$AAAA")  # n not a power of 2
    assert not verify_token("s3cret-token", "md5$abc")


def test_roster_add_writes_hashes_and_prints_each_token_once(tmp_path):
    path = tmp_path / "class.yaml"
    result = CliRunner().invoke(main, ["serve", "roster", "add", str(path), "Ada Lovelace", "  Grace Hopper "])
    assert result.exit_code == 0, result.output
    lines = [line.split("\t") for line in result.output.splitlines()]
    assert [name for name, _ in lines] == ["Ada Lovelace", "Grace Hopper"]
    text = path.read_text()
    for _, token in lines:
        assert len(token) >= 20 and token not in text
    roster = Roster.load(path)
    assert roster.check("Ada Lovelace", lines[0][1]) == "Ada Lovelace"
    assert roster.check(" Grace Hopper ", lines[1][1]) == "Grace Hopper"
    assert roster.check("Ada Lovelace", lines[1][1]) is None  # another trainee's token
    assert roster.check("Nobody", lines[0][1]) is None
    assert path.stat().st_mode & 0o077 == 0  # readable by its owner only

    again = CliRunner().invoke(main, ["serve", "roster", "add", str(path), "Ada Lovelace"])
    new_token = again.output.split("\t")[1].strip()
    roster = Roster.load(path)
    assert list(roster.entries) == ["Ada Lovelace", "Grace Hopper"]
    assert roster.check("Ada Lovelace", new_token) == "Ada Lovelace"
    assert roster.check("Ada Lovelace", lines[0][1]) is None  # the old token no longer works


@pytest.mark.parametrize(
    ("name", "why"),
    [("", "the trainee name is empty"), ("   ", "the trainee name is empty"),
     ("tab\there", "the trainee name from the command line contains control characters (\\x09)"),
     ("x" * 81, "the trainee name from the command line is 81 characters long; at most 80 are allowed")],
)
def test_roster_add_refuses_a_bad_name(tmp_path, name, why):
    result = CliRunner().invoke(main, ["serve", "roster", "add", str(tmp_path / "r.yaml"), name])
    assert result.exit_code == 2
    assert why in result.output and "--trainee" not in result.output  # the name is no --trainee
    assert "Traceback" not in result.output
    assert not (tmp_path / "r.yaml").exists()


def test_a_bad_name_in_the_roster_file_is_named_as_the_rosters(tmp_path):
    path = tmp_path / "roster.yaml"
    path.write_text(f"trainees:\n  - name: {'x' * 81}\n    token: '{hash_token('a')}'\n")
    with pytest.raises(RosterError) as caught:
        Roster.load(path)
    assert str(caught.value) == (
        f"{path}:2:11: the trainee name from the roster is 81 characters long; at most 80 are allowed"
    )


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("trainees: [\n", "2:1", "not a YAML roster"),
        ("- a\n", "1:1", "a roster is a mapping"),
        ("people: []\n", "1:1", "unknown key 'people'"),
        ("trainees:\n  - name: Ada\n    token: hunter2\n", "3:12", "never holds a plain token"),
        ("trainees:\n  - name: Ada\n", "2:5", "a mapping with a name, a token and optionally a role"),
        (f"trainees:\n  - {{name: Ada, token: '{hash_token('a')}', role: admin}}\n", "2:", "the role 'admin' is not"),
        (f"trainees:\n  - {{name: Ada, token: '{hash_token('a')}'}}\n  - {{name: Ada, token: '{hash_token('b')}'}}\n",
         "3:12", "'Ada' is in the roster twice"),
    ],
    # hashes are salted: the same ids in every xdist worker
    ids=["not-yaml", "not-a-mapping", "unknown-key", "plain-token", "no-token", "bad-role", "twice"],
)
def test_a_bad_roster_is_reported_at_its_place(tmp_path, text, where, message):
    path = tmp_path / "roster.yaml"
    path.write_text(text)
    with pytest.raises(RosterError) as caught:
        Roster.load(path)
    assert str(caught.value).startswith(f"{path}:{where}")
    assert message in str(caught.value)
    result = CliRunner().invoke(main, ["serve", "--roster", str(path)])
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_an_empty_roster_is_refused(tmp_path):
    path = tmp_path / "roster.yaml"
    path.write_text("trainees: []\n")
    result = CliRunner().invoke(main, ["serve", "--roster", str(path)])
    assert result.exit_code == 1 and "the roster has no trainees" in result.output


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True), ("localhost", True),
     ("0.0.0.0", False), ("::", False), ("192.168.1.20", False), ("warroom.example.org", False)],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback


def test_the_app_command_quotes_the_trainee_and_every_path(tmp_path):
    folder = tmp_path / "my drills; rm -rf ~"
    command = app_command("O'Brien $(id)", AppOptions(drill_dirs=(folder,), data_dir=tmp_path / "d"), python="py")
    import shlex

    assert command.startswith("exec ")
    assert shlex.split(command[5:]) == [
        "env", "TEXTUAL_FPS=240",
        "py", "-m", "warroom", "--trainee", "O'Brien $(id)", "--drills", str(folder), "--data-dir", str(tmp_path / "d"),
    ]


def test_a_served_app_process_draws_at_most_240_frames_a_second(tmp_path):
    """textual-serve starts every app process at 60 frames a second; a served tab's command sets 240 (the war room's
    second frame of a key, the inspector, then comes 4 to 8 ms after the first instead of 17 to 33 ms), and Textual
    takes it."""
    import os
    import shlex
    import subprocess

    command = app_command("ana", AppOptions(data_dir=tmp_path / "d"), tab="t1")
    assert shlex.split(command[5:])[:3] == ["env", "TEXTUAL_FPS=240", "WARROOM_SERVE_TAB=t1"]
    probe = command.split(" -m warroom", 1)[0] + " -c 'from textual import constants; print(constants.MAX_FPS)'"
    ran = subprocess.run(probe, shell=True, capture_output=True, text=True,
                         env={**os.environ, "TEXTUAL_FPS": "60"}, check=True)  # fmt: skip
    assert ran.stdout.strip() == "240"


def test_serve_refuses_a_bad_drill_set_before_serving(tmp_path):
    set_file = tmp_path / "set.yaml"
    set_file.write_text("set: week1\ntitle: Week 1\ndrills:\n  - no-such-drill\n")
    result = CliRunner().invoke(main, ["serve", "--set", str(set_file), "--port", "0"])
    assert result.exit_code == 1
    assert f"{set_file}:4:" in result.output and "no-such-drill" in result.output


def test_a_served_tab_is_given_the_drill_set(tmp_path):
    set_file = tmp_path / "week 1.yaml"
    command = app_command("ana", AppOptions(drill_dirs=(), data_dir=tmp_path / "d", drill_set=set_file), python="py")
    import shlex

    assert shlex.split(command[5:])[-2:] == ["--set", str(set_file)]


def test_roster_add_refuses_a_name_given_twice_and_writes_nothing(tmp_path):
    path = tmp_path / "class.yaml"
    result = CliRunner().invoke(main, ["serve", "roster", "add", str(path), "Ann", "Bob", " Ann"])
    assert result.exit_code == 2
    assert "Error: NAME 'Ann' is given twice: each name gets one token" in result.output
    assert "\t" not in result.output  # no token printed that would not work
    assert not path.exists()


def test_a_misspelt_name_to_remove_or_rotate_is_offered_the_name_on_the_roster(tmp_path):
    # a facilitator's slip, `roster remove class.yaml "Alan Turning"`, said only "not on the roster: 'Alan Turning'"
    path = tmp_path / "class.yaml"
    runner = CliRunner()
    assert runner.invoke(main, ["serve", "roster", "add", str(path), "Alan Turing", "Grace Hopper"]).exit_code == 0
    removed = runner.invoke(main, ["serve", "roster", "remove", str(path), "Alan Turning"])
    assert removed.exit_code == 2
    assert "not on the roster: 'Alan Turning' (did you mean `Alan Turing`?)" in removed.output
    rotated = runner.invoke(main, ["serve", "roster", "rotate", str(path), "Grace Hoper", "Zed"])
    assert rotated.exit_code == 2
    assert ("not on the roster: 'Grace Hoper' (did you mean `Grace Hopper`?), 'Zed' (`roster add` adds them)"
            in " ".join(rotated.output.split()))
