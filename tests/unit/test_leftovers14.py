"""Issue 30's leftovers of the fourteenth stop: YAML's indicators before quoted text, zip archives named as such, an
output folder left by a refused projection, and numbers of a drill (set) read or shown as they were not written."""

from __future__ import annotations

from pathlib import Path

import pytest


def _full_title(value: str) -> str:
    """The full example with its title written ``value``."""
    from warroom.core.author._examples import example_path

    text = example_path("full").read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("title: "))
    return text.replace(old, f"title: {value}", 1)


@pytest.mark.parametrize(("value", "quoted", "read"), [
    ('&Co "replies"', '"&Co replies"', "replies"),
    ("&Co 'replies'", '"&Co replies"', "replies"),
    ('! "urgent"', '"! urgent"', "urgent"),
])
def test_an_anchor_or_tag_before_quoted_text_is_warned_with_the_text_to_write(value: str, quoted: str, read: str,
                                                                              tmp_path: Path) -> None:
    """`title: &Co "replies"` was the title `replies` without a word: the anchor before the quotes is YAML's."""
    from warroom.core.load import load_drill_with_warnings

    path = tmp_path / "fanout-retries.yaml"
    path.write_text(_full_title(value), encoding="utf-8")
    drill, warnings = load_drill_with_warnings(path)
    assert drill.title == read
    cut = [w for w in warnings if w.rule == "indicator-cut"]
    assert len(cut) == 1 and cut[0].message.endswith(f"put it all in quotes: {quoted}"), warnings
    path.write_text(_full_title(quoted), encoding="utf-8")
    drill, again = load_drill_with_warnings(path)
    assert drill.title == quoted[1:-1] and not [w for w in again if w.rule == "indicator-cut"]


def _utf8_zip() -> bytes:
    """A zip archive (stored, not deflated) of one chat transcript whose every byte is valid UTF-8 (its checksum's
    bytes happen to be ASCII, its file attributes zero): nothing but its first bytes says it is a zip."""
    import io
    import zipfile

    for pad in range(2000):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
            info = zipfile.ZipInfo("run.json", date_time=(2020, 1, 1, 0, 0, 0))
            info.create_system = 0
            archive.writestr(info, '{"messages": [{"role": "user", "content": "hi"}]}' + " " * pad + "\n")
        raw = bytearray(out.getvalue())
        central = raw.index(b"PK\x01\x02")
        raw[central + 38:central + 42] = bytes(4)  # the external attributes (a Unix mode's bytes are not UTF-8)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        return bytes(raw)
    raise AssertionError("no zip archive of valid UTF-8 found")


def test_a_zip_archive_of_valid_utf8_is_named_a_zip_archive_by_the_importers(tmp_path: Path) -> None:
    """It was `not JSON: Expecting value` (and a warning of NUL bytes at its end)."""
    from click.testing import CliRunner

    from warroom.cli import main

    path = tmp_path / "runs.zip"
    path.write_bytes(_utf8_zip())
    result = CliRunner().invoke(main, ["import", "chat", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert f"{path}:1:1: compressed (a zip archive), not UTF-8 JSON text: decompress it first (`unzip FILE`)" in (
        result.output)
    assert "not JSON" not in result.output and "NUL" not in result.output


def test_a_zip_archive_of_valid_utf8_given_as_a_drill_is_named_a_zip_archive(tmp_path: Path) -> None:
    from warroom.core.load import DrillLoadError, load_drill

    path = tmp_path / "drill.yaml"
    path.write_bytes(_utf8_zip())
    with pytest.raises(DrillLoadError) as caught:
        load_drill(path)
    assert str(caught.value) == (f"{path}:1:1: compressed (a zip archive), not a drill's YAML text: decompress it "
                                 "first (`unzip FILE`) and give the file it holds")


@pytest.mark.parametrize("source", ["MISSING", "empty.yaml"])
def test_project_all_that_writes_nothing_creates_no_out_folder(source: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`warroom project --all MISSING --out o` failed but left an empty folder `o` behind."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["project", "--all", source, "--out", "o/deeper"])
    assert result.exit_code == 1, result.output
    assert not (tmp_path / "o").exists()


def test_a_drill_sets_drill_is_stamped_when_the_set_reads_it_not_when_the_app_starts(tmp_path: Path) -> None:
    """A drill edited after its set read it but before the app started was taken as read as it is now: the session
    would start on the drill as the set read it and record the edited file's SHA-256 (its review replaying another
    drill). The stamp is now the file's as the set read it, so the picker reads the drill again first."""
    import os
    import shutil

    from warroom.core.author._examples import example_path
    from warroom.tui.logic import Services
    from warroom.tui.logic._drillsets import load_active_set

    drill = tmp_path / "fanout-retries.yaml"
    shutil.copy(example_path("full"), drill)
    (tmp_path / "week.yaml").write_text("set: week-1\ntitle: Week 1\ndrills: [fanout-retries.yaml]\n",
                                        encoding="utf-8")
    active = load_active_set(tmp_path / "week.yaml")
    (entry,) = [d for d in active.drills]
    text = drill.read_text(encoding="utf-8")
    drill.write_text(text.replace("title: ", "title: Edited ", 1), encoding="utf-8")  # after the set read it
    st = drill.stat()
    os.utime(drill, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    services = Services("ann", tmp_path / "data", drill_set=active)
    (listed,) = services.set_catalog()
    assert listed.drill is entry.drill
    assert not services.is_current(listed)
    assert services.cannot_start(listed) == (
        "its file changed since it was opened: go back and open it again to play it as it is now")


@pytest.mark.parametrize(("written", "why"), [
    ("1e-400", "a price is 0 (a free model) or at least 0.000001 USD per million tokens"),
    ("0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
     "a price is 0 (a free model) or at least 0.000001 USD per million tokens"),
    ("-1e-400", "must be at least 0, got `-1e-400`"),
])
def test_a_price_too_small_for_a_float_is_refused_not_read_as_0(written: str, why: str) -> None:
    """`1e-400` underflows to 0.0 when read: the drill's model became free without a word. It is refused at its
    place, as `--price 1e-400/1` is."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import DrillLoadError, load_drill_text

    text = example_path("full").read_text(encoding="utf-8")
    old = "planner: {name: big, input_usd_per_mtok: 5,"
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    column = len("  planner: {name: big, input_usd_per_mtok: ") + 1
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text.replace(old, f"planner: {{name: big, input_usd_per_mtok: {written},"), "full.yaml")
    assert str(caught.value).startswith(f"full.yaml:{line}:{column}: ")
    assert why in str(caught.value)


@pytest.mark.parametrize(("rate", "shown"), [(0.0004, "noise_rate 0.0004"), (0.0, "noise_rate 0)"),
                                             (1e-9, "noise_rate 1e-09")])
def test_the_debrief_of_a_set_that_never_plays_a_twin_shows_its_noise_rate_as_written(rate: float, shown: str) -> None:
    """`noise_rate: 0.0004` rounds to no noise trial in 1,000 draws, and the debrief said `(noise_rate 0)`: a rate
    the set does not have."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import load_drill
    from warroom.tui.screens._debrief import trial_sentence

    drill = load_drill(example_path("full"))
    assert drill.twin is not None
    sentence = trial_sentence(drill, drill, rate)
    assert sentence is not None and shown in sentence and "never played" in sentence
    if rate:
        assert "noise_rate 0)" not in sentence and "rounds to 0" in sentence


def test_an_abandoned_sessions_seed_is_hidden_with_its_trial() -> None:
    """`warroom scores --format json|csv` hid the trial (`played_as`, `response`) of a session that never reached its
    debrief, but showed its seed, which draws that trial (`warroom run --seed N` replays it): the seed is hidden too.
    A session that reached its debrief keeps it."""
    from warroom.core.model import hidden_session_fields, pre_debrief_session

    row = {"outcome": "abandoned", "seed": 7, "played_as": "noise", "response": "abandoned", "scorecard": {}}
    hidden = pre_debrief_session(row)
    assert hidden["seed"] is None and hidden["played_as"] is None and hidden["response"] is None
    assert "seed" in hidden_session_fields("abandoned") and not hidden_session_fields("missed")
    assert pre_debrief_session({**row, "outcome": "missed"})["seed"] == 7
