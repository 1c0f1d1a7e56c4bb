"""Files that must be regular files, and writing them safely: what a path is when it is not a regular file (a folder,
a FIFO, a device), found before anything opens it; one real path per file; and the one atomic write
(:func:`replace_file`, :func:`replace_files`: a temporary file renamed over the old one) that every writer uses;
JSON records read one way (:func:`record_json`: a key given twice in one object is refused).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
