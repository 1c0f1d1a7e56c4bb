"""``warroom new ID``: write a commented skeleton drill to start authoring from."""

from __future__ import annotations

from pathlib import Path

import click

from warroom.cli.common import GivenPath, failure, say


def _schema_ref_for(out_dir: Path) -> str:
    """The schema reference for a drill written to ``out_dir``: the repository's schema inside ``drills/``."""
    from warroom.core.author import LOCAL_SCHEMA_REF, REPO_SCHEMA_REF

    repo_schema = out_dir.resolve().parent / "schema" / "drill.schema.json"
    if out_dir.resolve().name == "drills" and repo_schema.is_file():
        return REPO_SCHEMA_REF
    return LOCAL_SCHEMA_REF


@click.command("new")
@click.argument("drill_id", metavar="ID")
@click.option(
    "--out",
    "out_dir",
    type=GivenPath(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder to write ID.yaml into (created if missing).",
)
@click.option(
    "--example",
    type=click.Choice(["basic", "full", "loop"]),
    default="basic",
    show_default=True,
    help="basic: a short commented format-2 skeleton (a planner and an executor); full: a format-2 drill that "
    "uses agents, models, batches, retries, repetition, approvals (approval_for), command results, probes with "
    "answers by time, evidence, accepted evidence and distractors at a field, and a twin; loop: a format-2 drill "
    "whose fault is a supervisor's handoff (origin: handoff), with steps that run at once (parallel) and spend as "
    "damage (damage.spend) with a budget deadline (one drill cannot hold a payments cascade and a spend budget "
    "consistently, so these fields are in their own example).",
)
def new(drill_id: str, out_dir: Path, example: str) -> None:
    """Write ID.yaml: a commented skeleton drill that validates and passes `warroom check` as written.

    ID is the drill's id and file name: letters, digits, '-', '_' and '.', starting with a letter or digit; a
    file name given as ID (`refund-pagination.yaml`, `refund-pagination.yml`) names the drill without its .yaml or
    .yml, and is the file written.
    The file starts with a yaml-language-server line so VS Code checks it against the drill schema: inside the
    repository's drills/ folder it points at ../schema/drill.schema.json, elsewhere at drill.schema.json next to
    the drill (write that file with `warroom schema --output drill.schema.json`).

    Never overwrites a file: exits 1 if ID.yaml exists, 2 for an invalid ID.
    """
    from warroom.core.author import LOCAL_SCHEMA_REF, skeleton_text
    from warroom.core.text import clean_name, shown_path

    given = drill_id
    drill_id, suffix = _id_and_suffix(given)
    target = out_dir / f"{drill_id}{suffix}"
    shown, shown_dir = shown_path(target), shown_path(out_dir)  # a folder name must not forge a line of its own
    try:  # a look that fails (a name too long for the system: ENAMETOOLONG) is a refusal, never a traceback
        existing = next((p for p in (out_dir / f"{drill_id}.yaml", out_dir / f"{drill_id}.yml") if p.exists()), None)
        not_a_folder = out_dir.exists() and not out_dir.is_dir()
    except OSError as exc:
        raise failure(f"cannot write {shown}: {exc.strerror or exc}") from None
    if existing is not None:
        raise failure(f"{clean_name(existing)} already exists; not overwriting it (pick another ID or --out folder)")
    if not_a_folder:
        raise failure(f"{shown_dir} is not a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a --out through a symbolic link to nothing: say so, never "x.yaml already exists"
        raise failure(f"cannot write {shown}: {_why_no_folder(out_dir, exc)}") from None
    schema_ref = _schema_ref_for(out_dir)
    if example != "basic":
        from warroom.core.author import example_text

        text = example_text(example, drill_id, schema_ref)
    else:
        text = skeleton_text(drill_id, schema_ref)
    from warroom.core.files import create_file

    try:
        create_file(target, text)  # whole or not at all; never over a file, even one created in a race
    except FileExistsError:
        raise failure(f"{shown} already exists; not overwriting it") from None
    except OSError as exc:
        raise failure(f"cannot write {shown}: {exc.strerror or exc}") from None
    say(f"wrote {shown}")
    if schema_ref == LOCAL_SCHEMA_REF and not (out_dir / LOCAL_SCHEMA_REF).exists():
        say(
            f"for checks in VS Code, also run: warroom schema --output {clean_name(out_dir / LOCAL_SCHEMA_REF)}"
        )
    say(f"next: edit it, then `warroom validate {shown}`, `warroom check {shown}`, `warroom run {shown}`")


def _id_and_suffix(given: str) -> tuple[str, str]:
    """The drill id and file suffix of ``warroom new``'s ID: a file name given as ID (`x.yaml`, `x.yml`) means the
    file x.yaml, never x.yaml.yaml of id x.yaml. Raises click.BadParameter for an invalid id."""
    from warroom.core.text import is_valid_id, visible_name

    drill_id, suffix = given, ".yaml"
    for ending in (".yaml", ".yml"):
        if drill_id.lower().endswith(ending) and len(drill_id) > len(ending):
            drill_id = drill_id[: -len(ending)]
            suffix = ".yml" if given.endswith(".yml") else ".yaml"  # (the library reads .yml, never .YML or .YAML)
            break  # one ending: `x.yml.yaml` is the file x.yml.yaml of id x.yml, never x.yaml
    if not is_valid_id(drill_id):
        raise click.BadParameter(
            "use letters, digits, '-', '_' and '.', starting with a letter or digit, at most 80 characters "
            "(e.g. 'refund-pagination')",
            param_hint=f"ID '{visible_name(given)}'",  # a zero-width space shown, not left to look like nothing
        )
    return drill_id, suffix


def _why_no_folder(out_dir: Path, exc: OSError) -> str:
    """Why the folder ``out_dir`` could not be made: the symbolic link to nothing (or in a loop) on its way, named
    with what to do, else the system's words."""
    from warroom.core.files import why_missing
    from warroom.core.text import shown_path

    for folder in (out_dir, *out_dir.parents):
        if folder.is_symlink() and (why := why_missing(folder)) is not None:
            why = why.replace("point it at a file", "point it at a folder")
            return f"{shown_path(folder)} is {why}"
    return exc.strerror or str(exc)
