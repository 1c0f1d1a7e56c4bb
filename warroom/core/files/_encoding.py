"""Text in a wide Unicode encoding told by its first bytes: a file saved as UTF-16 or UTF-32 (Windows PowerShell's
`>` and Notepad's "Unicode" write UTF-16) is named as such, with the command that converts it, instead of as text
with a byte that is not UTF-8 or, without a byte order mark, as text full of NUL control characters."""

from __future__ import annotations

#: Byte order marks of the wide encodings, longest first (UTF-32's little-endian mark starts with UTF-16's).
MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
         (b"\xfe\xff", "UTF-16"))

#: How many bytes at the start are looked at for a wide encoding written without a byte order mark.
SNIFF_BYTES = 64


def wide_encoding_of(data: bytes) -> str | None:
    """The wide encoding ``data`` (a file's first bytes, or all of it) is in, as iconv names it: ``"UTF-16"`` or
    ``"UTF-32"`` after that encoding's byte order mark, ``"UTF-16LE"`` (...) for ASCII text written in it without
    one (a NUL beside every character: no UTF-8 text, which never holds a NUL, starts so); None otherwise."""
    found = next((name for mark, name in MARKS if data.startswith(mark)), None)
    if found is not None:
        return found
    head = data[: SNIFF_BYTES - SNIFF_BYTES % 4]
    if len(head) < 4:
        return None
    for width, name in ((4, "UTF-32"), (2, "UTF-16")):
        for offset, order in ((0, "LE"), (width - 1, "BE")):  # little-endian: the character first; big: last
            chars, nuls = head[offset::width], bytes(b for i, b in enumerate(head) if i % width != offset)
            if not nuls.strip(b"\x00") and all(0 < c < 0x80 for c in chars):
                return name + order
    return None


def wide_encoding_message(name: str) -> str:
    """What to say of a drill file (or a set file) in the wide encoding ``name`` (as :func:`wide_encoding_of` names
    it): what it is and how to convert it."""
    saved = " (as Windows PowerShell's `>` and Notepad's \"Unicode\" save it)" if name.startswith("UTF-16") else ""
    return (f"the file is {name} text, not UTF-8{saved}: save it as UTF-8, e.g. "
            f"`iconv -f {name} -t UTF-8 FILE > NEW.yaml`")
