"""``warroom import who-and-when``: the Who&When importer as the registry lists it, and the package's function to
import records (:func:`import_records`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.importers.kit import Option, Price, run_import
from warroom.importers.who_and_when._rules import (
    DEFAULT_EXECUTOR_PRICE,
    DEFAULT_PLANNER_PRICE,
    SUBSETS,
    ImportOptions,
    RecordError,
)

if TYPE_CHECKING:
    from warroom.importers.kit import DrillData, Redactor


def _is_record(item: Any) -> bool:
    """A Who&When record's shape: an object with a ``history`` of messages and the annotation of its mistake (or
    the annotation alone, a record without its history)."""
    return isinstance(item, dict) and (
        (isinstance(item.get("history"), list) and ("mistake_step" in item or "question" in item))
        or ("mistake_step" in item and "mistake_agent" in item))


class WhoAndWhen:
    """Who&When records (real failed runs of agent teams, annotated with the mistake that decided the failure):
    one drill per record file, with its answer key (the annotators' mistake step is the evidence)."""

    name = "who-and-when"
    title = "a Who&When record"
    shape = "`history`, `mistake_step`"
    unit = "record"
    suffixes = (".json",)
    error = RecordError
    answer_key = True
    needs = None
    out_help = "Folder for the drill files (created if missing). Each drill is <out>/ww-<subset>-<record>.yaml."
    options = (
        Option("--planner-price", "IN/OUT", "Planner prices, USD per million input/output tokens (default "
               f"{DEFAULT_PLANNER_PRICE.input_usd_per_mtok:g}/{DEFAULT_PLANNER_PRICE.output_usd_per_mtok:g}).",
               Price.parse),
        Option("--executor-price", "IN/OUT", "Executor prices, USD per million input/output tokens (default "
               f"{DEFAULT_EXECUTOR_PRICE.input_usd_per_mtok:g}/{DEFAULT_EXECUTOR_PRICE.output_usd_per_mtok:g}).",
               Price.parse),
    )
    help = """Convert Who&When records (JSON files, or folders searched recursively for *.json) into drills.

    Both record kinds are read: magentic-one (an Orchestrator plans and instructs agents) and captain-agent (a
    manager's plan, then expert turns). A record that cannot be imported is reported as `path:line:col: message` and the
    rest still import. Exit status: 0 when every record imported, 1 when any failed, 2 on usage errors.

    Example: warroom import who-and-when path/to/who-and-when --out ~/ww-drills
    """

    def recognises(self, values: Sequence[Any]) -> bool:
        return len(values) == 1 and _is_record(values[0])

    def make_options(self, given: Mapping[str, Any], redactor: Redactor | None) -> ImportOptions:
        return ImportOptions(planner_price=given.get("planner_price") or DEFAULT_PLANNER_PRICE,
                             executor_price=given.get("executor_price") or DEFAULT_EXECUTOR_PRICE, redactor=redactor)

    def read(self, path: Path, options: ImportOptions) -> list[DrillData]:
        """The drill of the record file at ``path`` (not yet checked: :meth:`finish`) and its file's header."""
        from warroom.importers.who_and_when._drill import record_to_drill_data
        from warroom.importers.who_and_when._parse import parse_record, read_record
        from warroom.importers.who_and_when._prose import file_header

        file = path.name if path.parent.name not in SUBSETS else f"{path.parent.name}/{path.name}"
        record = parse_record(read_record(path), path.stem, file=file)
        return [(record_to_drill_data(record, options), file_header(record))]

    def finish(self, data: dict[str, Any], header: str) -> str:
        """The drill's YAML text with ``header``, once it loads and passes `warroom check`
        (:func:`~warroom.importers.kit.checked_drill`); raises RecordError otherwise."""
        from warroom.importers.kit import checked_drill, dump_drill_yaml
        from warroom.importers.who_and_when._drill import CHECKED

        text = dump_drill_yaml(data, header)
        checked_drill(text, data["id"], RecordError, CHECKED)
        return text


#: The Who&When importer (the registry finds it in this package's API).
IMPORTER = WhoAndWhen()
#: Convert every Who&When record under ``paths`` into a drill file ``<out_dir>/<drill id>.yaml``: a bad record is
#: reported in its result and the rest still import (:func:`warroom.importers.kit.run_import`).
import_records = partial(run_import, IMPORTER)
