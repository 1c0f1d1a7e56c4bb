# The API of warroom.core.load (its __init__.py loads each name on first use, from the module named here).

from ._loader import load_drill, load_drill_text, load_drill_with_warnings, load_yaml_text, reader_versions
from ._problems import DrillLoadError, DrillReadError, Problem, problem_at
from ._yaml.build import Abort, Builder
from ._yaml.core import yaml11_value
from ._yaml.pos import ALIAS_MARKS, compose_text, locate, position_of

__all__ = [
    "ALIAS_MARKS",
    "Abort",
    "Builder",
    "DrillLoadError",
    "DrillReadError",
    "Problem",
    "compose_text",
    "load_drill",
    "load_drill_text",
    "load_drill_with_warnings",
    "load_yaml_text",
    "locate",
    "position_of",
    "problem_at",
    "reader_versions",
    "yaml11_value",
]
