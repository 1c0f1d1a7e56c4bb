"""`warroom import chat` on the command line: drills written, bad files as `path:line:col: message`, exit statuses."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main


def test_imports_every_conversation_and_validate_names_only_the_answer_key(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(FIXTURES / "chat"), "--out", str(out), "-v"])
    assert result.exit_code == 0, result.output
    assert "3 drills imported" in result.output and "from 2 files, 0 failed" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["chat-refund.yaml", "chat-tau-bench-0.yaml",
                                                     "chat-tau-bench-1.yaml"]
    for p in out.iterdir():
        only_missing_key(p)
    validate = CliRunner().invoke(main, ["validate", str(out / "chat-refund.yaml")])
    assert validate.exit_code == 1
    assert "chat-refund.yaml:" in validate.output and "the drill needs an answer_key" in validate.output


def test_a_bad_file_is_one_line_exit_1_and_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "zz", "content": ""}]',
                   encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(bad), str(FIXTURES / "chat" / "refund.json"),
                                       "--out", str(out)])
    assert result.exit_code == 1
    assert f"{bad}:1:1: [1].tool_call_id 'zz' answers no earlier tool call" in result.output
    assert "Traceback" not in result.output
    assert [p.name for p in out.iterdir()] == ["chat-refund.yaml"]


def test_existing_drills_are_kept_without_force_and_bad_prices_are_usage_errors(tmp_path: Path) -> None:
    out = tmp_path / "out"
    src = str(FIXTURES / "chat" / "refund.json")
    assert CliRunner().invoke(main, ["import", "chat", src, "--out", str(out)]).exit_code == 0
    again = CliRunner().invoke(main, ["import", "chat", src, "--out", str(out)])
    assert again.exit_code == 1 and "already exists (use --force to overwrite it)" in again.output
    assert CliRunner().invoke(main, ["import", "chat", src, "--out", str(out), "--force"]).exit_code == 0
    price = CliRunner().invoke(main, ["import", "chat", src, "--out", str(out), "--price", "cheap"])
    assert price.exit_code == 2 and "IN/OUT" in price.output


def test_the_closing_hint_names_warroom_annotate_as_the_next_step(tmp_path: Path) -> None:
    """After an import, the last line says how to mark the drill up: `warroom annotate` with the file written (quoted
    for the shell when its path has a space), or FILE when there are several."""
    out = tmp_path / "my out"
    one = CliRunner().invoke(main, ["import", "chat", str(FIXTURES / "chat" / "refund.json"), "--out", str(out)])
    assert one.exit_code == 0, one.output
    assert one.output.splitlines()[-1] == (
        f"Each drill has no answer key yet: mark up the incident with `warroom annotate '{out}/chat-refund.yaml'` (the "
        "war room's author mode, docs/importing.md), then `warroom validate`.")
    many = CliRunner().invoke(main, ["import", "chat", str(FIXTURES / "chat"), "--out", str(tmp_path / "all")])
    assert many.exit_code == 0, many.output
    assert "mark up the incident with `warroom annotate FILE` (the war room's author mode" in many.output


def test_ground_truth_writes_keyed_drills_that_pass_check(tmp_path: Path) -> None:
    runs = FIXTURES / "agentrx" / "tau-retail"
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(runs / "failed"), "--ground-truth",
                                       str(runs / "ground_truth.json"), "--out", str(out)])
    assert result.exit_code == 1  # one run's failure is the user's: refused, with the reason
    assert "8.json:1:1: the failure is in the user's request" in result.stderr
    assert ("1 drill imported into" in result.stdout
            and "Each drill is keyed from the ground truth and passed `warroom check`" in result.stdout)
    check = CliRunner().invoke(main, ["check", str(out / "chat-7.yaml")])
    assert check.exit_code == 0, check.output
    # the drill is ready but for its habit, which validate then warns about: the import says so, and how to add it
    assert "gives no habit that would have caught the fault, so `warroom validate` warns" in result.stdout
    validated = CliRunner().invoke(main, ["validate", str(out / "chat-7.yaml")])
    assert validated.exit_code == 0 and "warning: the answer key has no `habit`" in validated.output
    missing = CliRunner().invoke(main, ["import", "chat", str(runs / "failed"), "--ground-truth",
                                        str(tmp_path / "nope.json"), "--out", str(out)])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_reading_time_stretches_the_gaps_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(FIXTURES / "chat" / "refund.json"), "--out", str(out),
                                       "--reading-time", "12"])
    assert result.exit_code == 0, result.output
    text = (out / "chat-refund.yaml").read_text(encoding="utf-8")
    assert "Re-timed for reading:" in text and "stretched to 12 s (--reading-time)" in text
    only_missing_key(out / "chat-refund.yaml")
    bad = CliRunner().invoke(main, ["import", "chat", str(FIXTURES / "chat"), "--out", str(out),
                                    "--reading-time", "soon"])
    assert bad.exit_code == 2 and "'soon' is not a number of seconds" in bad.output
