# The API of warroom.core.projection (its __init__.py loads each name on first use, from the module named here).

from ._batch import project_all, project_files
from ._damage import DEFAULT_UNIT, damage_rules, is_write_like, parse_damage
from ._difficulty import estimate
from ._engine import Options, project
from ._problems import ProjectionError
from ._sites import sites_of, survey
from ._source import read_source, source_of
from ._templates import TEMPLATES
from ._verify import verify

__all__ = [
    "DEFAULT_UNIT",
    "Options",
    "ProjectionError",
    "TEMPLATES",
    "damage_rules",
    "estimate",
    "is_write_like",
    "parse_damage",
    "project",
    "project_all",
    "project_files",
    "read_source",
    "sites_of",
    "source_of",
    "survey",
    "verify",
]
