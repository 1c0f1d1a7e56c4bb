"""Issue 30's leftovers of the tenth stop: each break found and left open, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.cli.common import GivenPath

#: A name of 5,000 characters (more than PATH_MAX: the system itself refuses it, and click says it does not exist).
LONG = "m" * 5000


def _path_parameters() -> list[tuple[str, click.Parameter]]:
    """Every parameter of the command tree whose type is a :class:`GivenPath` that must exist."""
    found: list[tuple[str, click.Parameter]] = []

    def walk(command: click.Command, path: str, ctx: click.Context) -> None:
        found.extend((f"{path} {p.name}", p) for p in command.params
                     if isinstance(p.type, GivenPath) and p.type.exists)  # fmt: skip
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                walk(sub, f"{path} {name}", click.Context(sub, info_name=name, parent=ctx))

    walk(main, "warroom", click.Context(main, info_name="warroom"))
    return found


def test_every_existing_path_parameter_cuts_a_long_name_in_clicks_refusal():
    # was: click's `File 'mmmm…' does not exist.` echoed all 5,000 characters (--roster, --set, --console-set,
    # --drills, --redact-names, import who-and-when's PATHS...)
    params = _path_parameters()
    assert len(params) >= 5, params
    for where, param in params:
        with pytest.raises(click.BadParameter) as refusal:
            param.type.convert(LONG, param, None)
        message = refusal.value.message
        assert LONG[:300] not in message, where
        assert message.endswith("mmmmmmmmmmmm…mmmm (5,000 characters) does not exist."), (where, message)


def test_a_long_missing_roster_is_named_by_its_start_end_and_length_on_the_command_line():
    result = CliRunner().invoke(main, ["serve", "--roster", LONG])
    assert result.exit_code == 2
    assert ("Error: Invalid value for '--roster': File mmmmmmmmmmmm…mmmm (5,000 characters) does not exist."
            in result.stderr)  # fmt: skip
    assert max(len(line) for line in result.output.splitlines()) < 120


def test_a_long_existing_file_given_as_a_drill_folder_is_cut_too(tmp_path: Path):
    folder = tmp_path / ("d" * 250)
    folder.mkdir()
    file = folder / "x.yaml"
    file.write_text("id: x\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--drills", str(file), "x"])
    assert result.exit_code == 2
    name = str(file)
    assert name not in result.output
    cut = f"{name[:12]}…yaml ({len(name):,} characters)"
    assert f"{cut} is a file, not a folder: --drills names a folder" in result.stderr


def test_a_short_path_is_still_echoed_whole_and_quoted():
    result = CliRunner().invoke(main, ["serve", "--roster", "no-such-roster.toml"])
    assert result.exit_code == 2
    assert "Invalid value for '--roster': File 'no-such-roster.toml' does not exist." in result.stderr


def test_replays_of_one_drill_share_its_cast_and_charge_as_a_fresh_one_does():
    # the gaming battery replays one drill some 25 times; each replay resolved every model call again (a tenth of
    # `warroom check`'s CPU): the Cast is made once per drill object, and charges exactly what a fresh one did
    from locations import TESTS

    from warroom.core.load import load_drill
    from warroom.core.model import Cast
    from warroom.core.play import Replay

    drill = load_drill(TESTS / "fixtures" / "shapes" / "shape-02-models.yaml")
    first, second = Replay(drill), Replay(drill)
    assert first._cast is second._cast
    assert Replay(load_drill(TESTS / "fixtures" / "shapes" / "shape-02-models.yaml"))._cast is not first._cast
    alone = Replay(drill)
    alone._cast = Cast(drill)  # as every replay had it before
    for replay in (first, second, alone):
        replay.run_to_end()
    assert first.cost.usd_by_model and first.cost.calls
    for meter in (second.cost, alone.cost):
        assert (meter.usd_by_model, meter.tokens_by_agent, meter.usd_by_step, meter.calls) == (
            first.cost.usd_by_model, first.cost.tokens_by_agent, first.cost.usd_by_step, first.cost.calls)


def test_a_cast_resolves_a_new_event_of_the_same_id_again():
    from locations import TESTS

    from warroom.core.load import load_drill
    from warroom.core.model import Cast

    drill = load_drill(TESTS / "fixtures" / "shapes" / "shape-02-models.yaml")
    cast = Cast.of(drill)
    event = next(e for e in drill.trace if e.__dict__.get("usage") is not None and e.repeat is None)
    before = cast.call(event)
    assert before is not None and cast.call(event) is before
    usage = before.usage.model_copy(update={"input_tokens": before.usage.input_tokens + 1000})
    again = cast.call(event.model_copy(update={"usage": usage}))
    assert again is not None and again.usage.input_tokens == before.usage.input_tokens + 1000


def test_a_kept_cast_keeps_no_drill_in_memory():
    # `warroom check` of a folder holds one drill at a time (campaign 8): a cast kept for a drill must not hold it
    import gc
    import weakref

    from locations import TESTS

    from warroom.core.load import load_drill
    from warroom.core.model import _agents
    from warroom.core.play import Replay

    drill = load_drill(TESTS / "fixtures" / "shapes" / "shape-02-models.yaml")
    Replay(drill).run_to_end()
    key, ref = id(drill), weakref.ref(drill)
    assert key in _agents._CASTS
    del drill
    gc.collect()
    assert ref() is None and key not in _agents._CASTS
