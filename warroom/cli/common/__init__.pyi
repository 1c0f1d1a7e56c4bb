# The API of warroom.cli.common (its __init__.py loads each name on first use, from the module named here).

from ._drills import DrillNotLoaded, DrillParam, drill_files_of, is_set_file
from ._options import (
    data_dir_option,
    data_dir_setting,
    drills_option,
    drills_setting,
    format_option,
    load_set_option,
    mode_option,
    pass_settings,
    resolved_settings,
    settings_from,
    settings_of,
    store_option,
    trainee_option,
    trainee_setting,
    use_store,
)
from ._output import emit, emit_csv, emit_json, failure, say
from ._progress import file_progress
from ._store import check_store, open_results, recover_and_report, report_recovered, store_errors
from ._tables import UNBOUNDED_WIDTH, cleaned, make_console, print_renderables, table_lines, text_table

__all__ = [
    "DrillNotLoaded",
    "DrillParam",
    "UNBOUNDED_WIDTH",
    "check_store",
    "cleaned",
    "data_dir_option",
    "data_dir_setting",
    "drill_files_of",
    "drills_option",
    "drills_setting",
    "emit",
    "emit_csv",
    "emit_json",
    "failure",
    "file_progress",
    "format_option",
    "is_set_file",
    "load_set_option",
    "make_console",
    "mode_option",
    "open_results",
    "pass_settings",
    "print_renderables",
    "recover_and_report",
    "report_recovered",
    "resolved_settings",
    "say",
    "settings_from",
    "settings_of",
    "store_errors",
    "store_option",
    "table_lines",
    "text_table",
    "trainee_option",
    "trainee_setting",
    "use_store",
]
