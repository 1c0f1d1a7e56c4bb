# The API of warroom.core.files (its __init__.py loads each name on first use, from the module named here).

from ._atomic import NotAnExportFile, ReadOnlyFile, create_file, replace_file, replace_files, replacing, writing
from ._compressed import compression_of
from ._encoding import wide_encoding_message, wide_encoding_of
from ._json import DuplicateKey, record_json
from ._regular import (
    SpecialFile,
    TooLarge,
    broken_link,
    expand_home,
    open_regular,
    read_limited,
    read_only_mode,
    real_path,
    special_file_kind,
    special_mode_kind,
    why_missing,
)
from ._unicode import unicode_twin, unicode_twin_message

__all__ = [
    "compression_of",
    "create_file",
    "DuplicateKey",
    "NotAnExportFile",
    "ReadOnlyFile",
    "SpecialFile",
    "TooLarge",
    "expand_home",
    "open_regular",
    "read_limited",
    "read_only_mode",
    "real_path",
    "record_json",
    "replace_file",
    "replace_files",
    "replacing",
    "writing",
    "special_file_kind",
    "special_mode_kind",
    "unicode_twin",
    "unicode_twin_message",
    "wide_encoding_message",
    "wide_encoding_of",
    "broken_link",
    "why_missing",
]
