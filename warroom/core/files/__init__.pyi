# The API of warroom.core.files (its __init__.py loads each name on first use, from the module named here).

from ._atomic import replace_file, replace_files, replacing
from ._regular import TooLarge, read_limited, real_path, special_file_kind, special_mode_kind

__all__ = [
    "TooLarge",
    "read_limited",
    "real_path",
    "replace_file",
    "replace_files",
    "replacing",
    "special_file_kind",
    "special_mode_kind",
]
