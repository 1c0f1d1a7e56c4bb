"""The drill argument of `warroom run`, `cost`, `check` and `validate`: one click ParamType
(warroom/cli/common/_drills.py) over one DrillLibrary (warroom/core/library/_library.py), and the settings every
command gets from the click context."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from store_support import DRILL_ID, bundled_drill_path, copy_drill

from warroom.cli import main
from warroom.cli.common import DrillParam, drills_setting, pass_settings
from warroom.core.library import DrillLibrary, LoadedDrill, bundled_drills_dir
from warroom.core.library._library import UnknownDrill
from warroom.core.settings import Settings


def _probe(folders: bool = False) -> click.Command:
    """A command that takes one drill argument and prints what the ParamType made of it."""

    @click.command()
    @click.argument("path_or_id", type=DrillParam(folders=folders))
    @drills_setting
    @pass_settings
    def probe(settings: Settings, path_or_id: object) -> None:
        if isinstance(path_or_id, LoadedDrill):
            click.echo(f"drill {path_or_id.drill.id} from {path_or_id.path}")
        else:
            click.echo(f"path {path_or_id}")
        click.echo(f"folders {[str(d) for d in settings.drill_dirs]}")

    return probe


def test_a_drill_id_is_resolved_in_the_library_and_loaded():
    r = CliRunner().invoke(_probe(), [DRILL_ID])
    assert r.exit_code == 0, r.output
    assert f"drill {DRILL_ID} from {bundled_drill_path()}" in r.output


def test_a_path_is_loaded_as_it_is(tmp_path: Path):
    path = copy_drill(tmp_path / "mine", "my-drill")
    r = CliRunner().invoke(_probe(), [str(path)])
    assert r.exit_code == 0, r.output
    assert f"drill my-drill from {path}" in r.output


def test_an_unknown_id_is_a_usage_error_with_a_suggestion():
    r = CliRunner().invoke(_probe(), [DRILL_ID[:-1]])  # one letter dropped
    assert r.exit_code == 2
    assert f"Invalid value for PATH_OR_ID: no drill file or drill id '{DRILL_ID[:-1]}'" in r.output
    assert f"(did you mean `{DRILL_ID}`?)" in r.output


def test_an_unrelated_name_gets_no_suggestion():
    r = CliRunner().invoke(_probe(), ["zzzz"])
    assert r.exit_code == 2 and "no drill file or drill id 'zzzz'" in r.output and "did you mean" not in r.output


def test_a_folder_is_a_usage_error_where_one_drill_is_needed_and_a_path_where_folders_are_taken(tmp_path: Path):
    r = CliRunner().invoke(_probe(), [str(tmp_path)])
    assert r.exit_code == 2 and f"{tmp_path} is a folder, not a drill file" in r.output
    r = CliRunner().invoke(_probe(folders=True), [str(tmp_path)])
    assert r.exit_code == 0 and f"path {tmp_path}" in r.output


def test_a_drill_that_does_not_load_prints_its_problems_and_exits_1(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [\n")
    r = CliRunner().invoke(_probe(), [str(bad)])
    assert r.exit_code == 1
    assert r.stderr.startswith(f"{bad}:") and "Error:" not in r.stderr


def test_drills_folders_count_before_or_after_the_argument(tmp_path: Path):
    lib = tmp_path / "lib"
    path = copy_drill(lib, "my-drill")
    for args in (["--drills", str(lib), "my-drill"], ["my-drill", "--drills", str(lib)]):
        r = CliRunner().invoke(_probe(), args)
        assert r.exit_code == 0, (args, r.output)
        assert f"drill my-drill from {path}" in r.output and f"folders {[str(lib)]}" in r.output


@pytest.mark.parametrize("command", ["run", "cost", "check", "validate"])
def test_every_drill_command_suggests_the_drill_id(command: str, tmp_path: Path):
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path), command, "duplicate-charge-refund"])
    assert r.exit_code == 2
    assert f"(did you mean `{DRILL_ID}`?)" in r.output


def test_root_and_subcommand_folders_make_one_settings_object(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    first, second = copy_drill(tmp_path / "a", "drill-a").parent, copy_drill(tmp_path / "b", "drill-b").parent
    seen = {}
    monkeypatch.setattr("warroom.tui.app.launch", lambda settings, **_: seen.update(s=settings))
    args = ["--drills", str(first), "--trainee", "ann", "run", "drill-b", "--drills", str(second), "--data-dir",
            str(tmp_path / "d")]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert seen["s"] == Settings(trainee="ann", data_dir=tmp_path / "d", drill_dirs=(first, second))


def test_the_library_lists_and_finds_drill_ids_in_natural_order(tmp_path: Path):
    lib = tmp_path / "lib"
    for n in (10, 2, 1):
        copy_drill(lib, f"ww-{n}")
    library = DrillLibrary((lib,))
    ids = library.drill_ids()
    assert [i for i in ids if i.startswith("ww-")] == ["ww-1", "ww-2", "ww-10"] and DRILL_ID in ids
    assert library.find("ww-2") == lib / "ww-2.yaml"
    assert library.find(DRILL_ID) == bundled_drills_dir() / f"{DRILL_ID}.yaml"
    assert library.find("nope") is None
    loaded = library.load("ww-10")
    assert loaded.path == lib / "ww-10.yaml" and loaded.drill.id == "ww-10"


def test_an_unknown_name_with_braces_is_reported_as_it_is():
    with pytest.raises(UnknownDrill) as info:
        DrillLibrary().resolve("{where}{0}")
    assert str(info.value).startswith("no drill file or drill id '{where}{0}' (searched ")
    assert info.value.suggestion == ""


def test_shell_completion_offers_the_library_drill_ids(monkeypatch: pytest.MonkeyPatch):
    param = DrillParam()
    ctx = click.Context(_probe())
    items = param.shell_complete(ctx, _probe().params[0], "duplicate-")
    assert [i.value for i in items[:-1]] == [DRILL_ID] and items[-1].type == "file"
    monkeypatch.setenv("WARROOM_TRAINEE", "bad\x1bname")  # settings that cannot be resolved: files only
    items = param.shell_complete(click.Context(_probe()), _probe().params[0], "duplicate-")
    assert [i.type for i in items] == ["file"]
