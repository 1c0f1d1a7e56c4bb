"""An eleventh fresh hostile campaign on the inputs (issue 30): the command line's arguments, environment variables,
drills and traces. Each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.cli.common import DrillParam, GivenPath

DRILL = str(Path(__file__).parents[2] / "drills" / "api-dns-cutover.yaml")


def _cli(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a ``warroom`` command, which never shows a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _commands(group: click.Group, ctx: click.Context) -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found.append((f"{ctx.command_path} {name}", command))
        if isinstance(command, click.Group):
            found += _commands(command, click.Context(command, info_name=name, parent=ctx))
    return found


def test_every_path_parameter_of_the_command_line_refuses_an_empty_name():
    """``Path("")`` is ``.``: a path parameter given an empty value (``--out "$OUT"``, the variable unset) read it
    as the current folder. Every ``click.Path`` of every command is a :class:`GivenPath`, which refuses it."""
    ctx = click.Context(main, info_name="warroom")
    plain = [f"{path} {param.name}" for path, command in [("warroom", main), *_commands(main, ctx)]
             for param in command.params
             if isinstance(param.type, click.Path) and not isinstance(param.type, GivenPath)]
    assert plain == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["validate", ""], "'PATH_OR_ID...': an empty name names no drill file, folder or drill id: give one"),
        (["check", ""], "'PATH_OR_ID...': an empty name names no drill file, folder or drill id: give one"),
        (["cost", ""], "'[DRILL]': an empty name names no drill file or drill id: give one"),
        (["migrate", ""], "'FILES...': an empty name names no file or folder: give one"),
        (["project", "--list", ""], "'[FILE]': an empty name names no file or folder: give one"),
        (["new", "x", "--out", ""], "'--out': an empty name names no folder: give one"),
        (["import", "chat", "c.json", "--out", ""], "'--out': an empty name names no folder: give one"),
        (["--data-dir", "", "scores"], "'--data-dir': an empty name names no folder: give one"),
        (["--set", ""], "'--set': an empty name names no file: give one"),
        (["score", DRILL, ""], "'LOG...': an empty name names no file: give one"),
    ],
)
def test_an_empty_path_is_refused_never_read_as_the_current_folder(tmp_path: Path, monkeypatch, args, message):
    """``validate ""`` checked every drill of the current folder (44 valid), ``new x --out ""`` and ``import chat
    c.json --out ""`` wrote their drills into it, ``migrate ""`` and ``--set ""`` named ``.``, a path nobody gave,
    and ``--data-dir ""`` kept the results in the current folder. Each is a usage error that writes nothing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.json").write_text('[{"role": "user", "content": "hi"}]', encoding="utf-8")
    (tmp_path / "a.yaml").write_text(Path(DRILL).read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = _cli(*args)
    assert code == 2, (out, err)
    assert f"Invalid value for {message}" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "c.json"]


def test_a_drill_argument_given_an_empty_name_is_refused_by_the_param_itself():
    with pytest.raises(click.BadParameter, match="an empty name names no drill file or drill id"):
        DrillParam().convert("", None, None)
