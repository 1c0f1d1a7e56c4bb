"""Where drills are found and how they are listed: the bundled library and the ``--drills`` folders
(:class:`DrillLibrary`, :func:`find_drill_files`, :func:`resolve_drill`, problems across files such as one id in two
files), the picker's cards of drills and their cache kept between starts, the drills of a drill set looked up and
loaded (:func:`resolve_set_drills`), which drills are of one healthy run (:func:`run_fingerprint`), and the adaptive
chooser of a set's next drill (:func:`choose_next`).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
