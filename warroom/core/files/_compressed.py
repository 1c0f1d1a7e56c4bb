"""Compressed files told by their first bytes: a drill, a log or a trace sent compressed is named as such, with the
command that decompresses it, instead of as text that is not UTF-8 (which no re-encoding fixes)."""

from __future__ import annotations

#: Compressed files by their first bytes, and how to decompress them (the Collector's file exporter writes zstd).
COMPRESSED = ((b"\x1f\x8b", "gzip", "gunzip -k"), (b"\x28\xb5\x2f\xfd", "zstd", "zstd -d"),
              (b"PK\x03\x04", "a zip archive", "unzip"), (b"BZh", "bzip2", "bunzip2 -k"),
              (b"\xfd7zXZ\x00", "xz", "unxz -k"))


def compression_of(data: bytes) -> tuple[str, str] | None:
    """``(kind, command)`` of the compressed file whose first bytes are ``data`` (``("gzip", "gunzip -k")``), else
    None."""
    return next(((kind, command) for magic, kind, command in COMPRESSED if data.startswith(magic)), None)
