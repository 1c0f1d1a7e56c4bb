"""The docs stay true to the command line: every ``warroom ...`` command shown in README.md and docs/*.md (in a shell
block, or as inline code in the text) parses with the CLI's own parser (its commands, options, their arity and
their choices), every option in a command's ``--help`` is mentioned somewhere in the docs, and every link between
the docs points at a file and a heading that exist.

Parsing only: no command runs, and drill ids, files and URLs are not resolved (the docs name files the reader has
not written yet), so the check is the same on every machine."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.library import bundled_drills_dir

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
#: Types whose conversion is pure (no file, drill library or store looked at): their values are checked too.
PURE_TYPES = (click.Choice, click.IntRange, click.FloatRange, click.DateTime)
#: A synopsis's placeholder for a value: ``N``, ``SESSION_ID...``.
PLACEHOLDER = re.compile(r"[A-Z][A-Z_/]*(\.\.\.)?")
#: Inline code that starts with ``warroom`` but is not a command line: the ``source`` the importer writes.
NOT_COMMANDS = {"warroom importer"}


def _text_lines(path: Path) -> Iterator[tuple[int, str, bool]]:
    """(line number, line, inside a fenced code block) for each line of ``path``."""
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        yield number, line, fenced


def doc_commands() -> list[tuple[str, str, bool]]:
    """("file:line", command text, whether it is a whole command line) for every ``warroom`` command in the docs:
    the lines of shell blocks that start with ``warroom`` (whole command lines; a trailing ``\\`` joins the next
    line) and the inline code spans that do (a command named in the text, perhaps without its arguments)."""
    found: list[tuple[str, str, bool]] = []
    for path in DOCS:
        lines = list(_text_lines(path))
        for index, (number, line, fenced) in enumerate(lines):
            where = f"{path.relative_to(REPO)}:{number}"
            if fenced:
                text = line.strip().removeprefix("$ ")
                start = text.find("warroom ") if text.startswith("python3 -m venv") else 0
                if not text[start:].startswith("warroom"):
                    continue
                text = text[start:]
                follow = index + 1
                while text.endswith("\\") and follow < len(lines):
                    text = text[:-1] + " " + lines[follow][1].strip()
                    follow += 1
                found.append((where, text, True))
            else:
                spans = re.findall(r"`(warroom(?: [^`]*)?)`", line)
                found.extend((where, span, False) for span in spans if span not in NOT_COMMANDS)
    return found


def synopsis_args(text: str) -> list[str]:
    """The arguments of a documented command line, as a shell would pass them: a trailing ``# comment`` and a
    ``| pipe`` dropped, a synopsis's optional ``[--opt VALUE]`` parts taken as given, ``a|b`` as its first choice,
    ``$VAR`` as a value."""
    text = re.sub(r"\[OPTIONS\]", "", text)
    text = re.sub(r"\[([^\]]*)\]", r"\1", text)
    text = re.sub(r"([^\s|]+)(?:\|[^\s|]+)+", r"\1", text)  # a|b|c (choices in a synopsis): the first
    words = shlex.split(text, comments=True)
    if "|" in words:
        words = words[: words.index("|")]
    return words[1:]


def _check_params(command: click.Command, ctx: click.Context, opts: dict[str, object], whole: bool) -> None:
    """Required arguments given (in a whole command line), and the values of options with a pure type valid
    unless they are a synopsis's placeholder (``--seed N``, ``--speed X``); raises click's errors."""
    for param in command.params:
        value = opts.get(param.name or "")  # a str, a list of them, or click's marker of a value not given
        values = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else []
        if whole and isinstance(param, click.Argument) and param.required and not values:
            raise click.MissingParameter(ctx=ctx, param=param)
        if isinstance(param.type, PURE_TYPES):
            for item in values:
                if not PLACEHOLDER.fullmatch(item):
                    param.type.convert(item, param, ctx)


def parse_command_line(args: list[str], whole: bool = True) -> list[str]:
    """Parse ``warroom ARGS`` as the CLI would, without running anything: each group's options, its subcommand,
    the subcommand's options and arguments (all its required ones unless not ``whole``). Returns the command path
    (``["warroom", "scores", "list"]``); raises click.UsageError (or click.BadParameter) where click would refuse
    the command line."""
    command: click.Command = main
    path = ["warroom"]
    parent: click.Context | None = None
    while True:
        ctx = click.Context(command, info_name=path[-1], parent=parent)
        opts, rest, _ = command.make_parser(ctx).parse_args(list(args))
        _check_params(command, ctx, opts, whole)
        if not isinstance(command, click.Group) or not rest or (path[-1] == "scores" and opts.get("delete")):
            if rest and not isinstance(command, click.Group) and not ctx.allow_extra_args:
                raise click.UsageError(f"unexpected extra arguments {rest}", ctx)
            return path
        sub = command.get_command(ctx, rest[0])
        if sub is None:
            raise click.UsageError(f"no such command {rest[0]!r}", ctx)
        command, args, parent = sub, rest[1:], ctx
        path.append(rest[0])


COMMANDS = doc_commands()


def test_the_docs_show_commands() -> None:
    # the extraction finds the commands of the README's blocks and of the text (a broken pattern finds none)
    texts = {text for _, text, _ in COMMANDS}
    assert "warroom scores list --set week-1 --mode assessment  # one drill set's assessment sessions" in texts
    assert "warroom run ID_OR_PATH" in texts and len(COMMANDS) > 250


@pytest.mark.parametrize(("where", "text", "whole"), COMMANDS, ids=[where for where, _, _ in COMMANDS])
def test_every_documented_command_parses(where: str, text: str, whole: bool) -> None:
    try:
        parse_command_line(synopsis_args(text), whole)
    except click.ClickException as exc:
        pytest.fail(f"{where}: `{text}` does not parse: {exc.format_message()}")


def test_a_wrong_command_line_does_not_parse() -> None:
    # the check can fail: an unknown option, a bad choice, an unknown command, a missing argument, an extra one
    for bad in (
        "warroom scores list --sort nonsense",
        "warroom scores --colour",
        "warroom run --speed",
        "warroom store vacuum",
        "warroom validate",
        "warroom schema extra",
        "warroom --mode exam",
    ):
        with pytest.raises(click.ClickException):
            parse_command_line(synopsis_args(bad))
    assert parse_command_line(["validate"], whole=False) == ["warroom", "validate"]  # named in the text
    assert parse_command_line(synopsis_args("warroom scores --trainee ana summary")) == ["warroom", "scores", "summary"]
    assert synopsis_args("warroom new ID [--out DIR] [--example basic|full]") == ["new", "ID", "--out", "DIR",
                                                                                   "--example", "basic"]
    assert synopsis_args("warroom new ID [--example basic|full|loop]") == ["new", "ID", "--example", "basic"]


def _all_commands() -> Iterator[tuple[str, click.Command]]:
    """("warroom scores list", command) for the root and every subcommand, depth first."""
    stack: list[tuple[str, click.Command]] = [("warroom", main)]
    while stack:
        name, command = stack.pop()
        yield name, command
        if isinstance(command, click.Group):
            ctx = click.Context(command, info_name=name.rsplit(" ", 1)[-1])
            for sub in command.list_commands(ctx):
                found = command.get_command(ctx, sub)
                if found is not None and not found.hidden:
                    stack.append((f"{name} {sub}", found))


def test_every_option_in_help_is_documented() -> None:
    docs = "\n".join(path.read_text(encoding="utf-8") for path in DOCS)
    missing = []
    for name, command in _all_commands():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                spellings = [o for o in param.opts + param.secondary_opts if o not in ("--help", "-h")]
                if not any(re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", docs) for o in spellings):
                    missing.append(f"{name} {'/'.join(spellings)}")
    assert missing == [], f"options in --help that no doc mentions: {missing}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_docs_resolve() -> None:
    anchors = {
        path: {_anchor(line.lstrip("#")) for _, line, fenced in _text_lines(path) if not fenced and line[:1] == "#"}
        for path in DOCS
    }
    broken = []
    for path in DOCS:
        for number, line, fenced in _text_lines(path):
            for link in [] if fenced else re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", link):
                    continue
                file, _, fragment = link.partition("#")
                target = (path.parent / file).resolve() if file else path
                if not target.exists() or (fragment and target in anchors and fragment not in anchors[target]):
                    broken.append(f"{path.relative_to(REPO)}:{number}: {link}")
    assert broken == []


def test_check_names_every_scripted_trainee() -> None:
    # `warroom check --help`, docs/authoring.md and docs/scoring.md's table name each trainee check plays (the
    # prober was once missing from the first two, which said "five")
    # and the gaming battery's trainees likewise (issue 31)
    from warroom.core.author._battery import BATTERY
    from warroom.core.author._check import TRAINEES

    help_text = " ".join(CliRunner().invoke(main, ["check", "--help"], terminal_width=200).output.split())
    authoring = " ".join((REPO / "docs" / "authoring.md").read_text(encoding="utf-8").split())
    scoring = (REPO / "docs" / "scoring.md").read_text(encoding="utf-8")
    listed = ", ".join(TRAINEES[:-1]) + f" and {TRAINEES[-1]}"
    assert f"The scripted trainees are {listed}, and the gaming battery" in help_text
    assert f"six scripted trainees ({', '.join(TRAINEES)}) and a gaming battery" in authoring and len(TRAINEES) == 6
    assert all(f"| **{name}** |" in scoring for name in TRAINEES + BATTERY)
    battery = ", ".join(BATTERY[:-1]).replace("random", "random (20 seeds)") + f" and {BATTERY[-1]}"
    assert f"that do not read the trace: {battery}" in help_text.replace("- ", "-")  # (click wraps at a hyphen)
    assert ", ".join(BATTERY).replace("random", "random over 20 seeds") in authoring


def test_messages_name_the_tutorial_mode_as_the_docs_do() -> None:
    # docs/war-room.md: a tutorial session "is stored in mode `tutorial`"; the refusal of --mode with a command said
    # "the tutorial is always practice", which `warroom scores` then contradicts
    result = CliRunner().invoke(main, ["--mode", "assessment", "tutorial"])
    assert result.exit_code == 2
    assert "the tutorial has a mode of its own, `tutorial`" in " ".join(result.stderr.split())
    assert "The session is stored in mode `tutorial`" in (REPO / "docs" / "war-room.md").read_text(encoding="utf-8")


def _blocks(path: Path) -> list[list[str]]:
    """The lines of each fenced code block of ``path``, in order."""
    blocks: list[list[str]] = []
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            inside = not inside
            if inside:
                blocks.append([])
        elif inside:
            blocks[-1].append(line)
    return blocks


def test_drill_set_example_and_its_problems_are_what_validate_says(tmp_path: Path, monkeypatch) -> None:
    # docs/drill-sets.md: the example set validates; with the changes the text describes, `warroom validate` prints
    # exactly the problems shown (the bundled library's folder written as .../warroom/drills)
    doc = REPO / "docs" / "drill-sets.md"
    example = next(b for b in _blocks(doc) if b and b[0].startswith("set: week-1"))
    shown = next(b for b in _blocks(doc) if b and b[0].startswith("week-1.set.yaml:4:11:"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "drills").mkdir()
    (tmp_path / "drills" / "my-drill.yaml").write_text(
        (bundled_drills_dir() / "tutorial.yaml").read_text(encoding="utf-8").replace("id: tutorial", "id: my-drill")
    )
    sets = tmp_path / "sets"
    sets.mkdir()
    (sets / "week-1.set.yaml").write_text("\n".join(example) + "\n")
    monkeypatch.chdir(sets)
    good = CliRunner().invoke(main, ["validate", "week-1.set.yaml"])
    assert good.exit_code == 0, good.output
    bad = "\n".join(example).replace("attempts: 2 ", "attempts: two").replace(
        "  - ../drills/my-drill.yaml", "  - duplicate-charge-refund\n  - duplicate-charge-refunds"
    )
    (sets / "week-1.set.yaml").write_text(bad + "\n")
    result = CliRunner().invoke(main, ["validate", "week-1.set.yaml"])
    library = str(bundled_drills_dir())
    assert result.exit_code == 1
    assert result.output.replace(library, ".../warroom/drills").splitlines() == shown


def test_repository_paths_named_in_the_docs_exist() -> None:
    # `warroom/core/author/examples/seed-cost.yaml`, `tests/fixtures/otel/legacy.jsonl`, `.ci/run`: a file or folder of
    # this repository named in code in the docs is there (a moved module leaves no stale pointer)
    pattern = re.compile(r"`((?:warroom|tests|benchmarks|drills|schema|docs|\.ci)/[\w./-]+)`")
    missing = [
        f"{path.relative_to(REPO)}:{number}: {name}"
        for path in DOCS
        for number, line, _ in _text_lines(path)
        for name in pattern.findall(line)
        if not (REPO / name.rstrip("/")).exists()
    ]
    assert missing == []


#: Options the docs give to programs other than warroom: createuser, pytest, the benchmarks and fixture scripts,
#: the field reference's generator.
OTHER_PROGRAMS_OPTIONS = {
    "--createrole", "--pwprompt",  # createuser (README, cohorts.md)
    "--dist", "--hypothesis-seed",  # pytest-xdist, hypothesis's pytest plugin
    "--scale", "--known", "--only",  # benchmarks/fuzz.py
    "--trainees", "--seconds",  # benchmarks/bench_serve.py
    "--big",  # tests/fixtures/generate_traces.py
    "--write",  # python -m warroom.core.author._fieldref
}  # fmt: skip


def test_every_option_the_docs_name_is_an_option_of_a_command() -> None:
    # the reverse of the --help check: an option named anywhere in the docs (also in the text, without its command)
    # is one a warroom command takes, so a renamed or removed option leaves no stale mention
    options = {"--help"} | OTHER_PROGRAMS_OPTIONS
    for _, command in _all_commands():
        for param in command.params:
            options.update(param.opts + param.secondary_opts)
    unknown = [
        f"{path.relative_to(REPO)}:{number}: {name}"
        for path in DOCS
        for number, line, _ in _text_lines(path)
        for name in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", line)
        if name not in options
    ]
    assert unknown == []


def test_environment_variables_match_the_code() -> None:
    # every WARROOM_* variable warroom reads is documented, and every one the docs name is read by warroom or by the
    # tests and benchmarks (WARROOM_FUZZ, WARROOM_TEST_POSTGRES)
    variable = re.compile(r"WARROOM_[A-Z][A-Z_]*[A-Z]")
    docs = {name for path in DOCS for name in variable.findall(path.read_text(encoding="utf-8"))}
    read = {name for path in (REPO / "warroom").rglob("*.py") for name in variable.findall(path.read_text("utf-8"))}
    elsewhere = {
        name
        for folder in ("tests", "benchmarks")
        for path in (REPO / folder).rglob("*.py")
        for name in variable.findall(path.read_text(encoding="utf-8"))
    }
    assert read <= docs, f"read by warroom, in no doc: {sorted(read - docs)}"
    assert docs <= read | elsewhere, f"in the docs, read by nothing: {sorted(docs - read - elsewhere)}"
    assert {"WARROOM_TRAINEE", "WARROOM_DATA_DIR", "WARROOM_STORE", "WARROOM_CHARSET"} <= read
