"""Files that must be regular files, and writing them safely: what a path is when it is not a regular file (a folder,
a FIFO, a device), found on the file opened without waiting (:func:`open_regular`), never by a look at the path
before opening it; one real path per file; and the one atomic write
(:func:`replace_file`, :func:`replace_files`: a temporary file renamed over the old one) that every writer uses;
JSON records read one way (:func:`record_json`: a key given twice in one object is refused).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
