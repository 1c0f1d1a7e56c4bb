# The API of warroom.core.load (its __init__.py loads each name on first use, from the module named here).

from ._advice import drill_advice
from ._drillset import (
    Adaptive,
    DrillSet,
    DrillSetError,
    is_drill_set_file,
    is_drill_set_text,
    load_drill_set,
    set_problem_at,
)
from ._loader import (
    decode_drill_bytes,
    load_drill,
    load_drill_text,
    load_drill_with_warnings,
    load_yaml_text,
    reader_versions,
)
from ._problems import DrillLoadError, DrillReadError, Problem, WarningGroup, group_warnings
from ._yaml.core import core_tag, yaml11_value
from ._yaml.pos import compose_text, position_of

__all__ = [
    "Adaptive",
    "DrillLoadError",
    "DrillReadError",
    "DrillSet",
    "DrillSetError",
    "Problem",
    "WarningGroup",
    "compose_text",
    "core_tag",
    "decode_drill_bytes",
    "drill_advice",
    "group_warnings",
    "is_drill_set_file",
    "is_drill_set_text",
    "load_drill",
    "load_drill_set",
    "load_drill_text",
    "load_drill_with_warnings",
    "load_yaml_text",
    "position_of",
    "reader_versions",
    "set_problem_at",
    "yaml11_value",
]
