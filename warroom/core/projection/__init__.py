"""Threat projection (``warroom project``): fault drills made from healthy real traces, as airport threat image
projection puts a synthetic threat into a real bag. A template changes one tool result of a healthy run so that it
shows a silent failure while the rest stays as it was; the answer key is generated from the trace and the author's
choices; the twin is the healthy run itself. docs/authoring.md ("Projection") explains it for authors.

The healthy run (:mod:`._source`), its results as the templates read them (:mod:`._view`, :mod:`._output`), the
fault templates (:mod:`._templates`) and the distractor templates (:mod:`._distractors`), the damage rules
(:mod:`._damage`), the drill clock's stretching (:mod:`._timing`), where templates apply (:mod:`._sites`), the
engine (:mod:`._engine`), the estimated difficulty (:mod:`._difficulty`), the check that a projection is fit to play
(:mod:`._verify`) and a whole folder projected (:mod:`._batch`).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
