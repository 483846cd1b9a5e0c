"""Imported once by the fork server that starts reader workers (Linux): everything a worker needs is
loaded and warmed here (jieba's dictionary too, when the scheme's SimHash features use its words), so
each worker forks ready instead of spending about a second loading it, and the tables' memory is
shared between workers."""

from __future__ import annotations

import os

# One BLAS thread per worker, set before numpy loads OpenBLAS: the workers are the parallelism, and
# OpenBLAS's own thread spun for 15-20 % of a core beside each one (SimHash's weighted vote is a
# small matrix product), which capped two workers at 1.7x of one on two cores.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import charset_normalizer  # noqa: F401
import numpy  # noqa: F401
import pypdf  # noqa: F401
import pypdfium2  # noqa: F401

# the modules whose functions the workers run, phase by phase: imported here, each worker's first task
# of a phase does not spend 15-25 ms importing them (on every worker at once: time no worker count saves)
from .. import scan  # noqa: F401
from ..fingerprint import keywords, text
from ..fingerprint.scheme import Scheme
from ..match import boilerplate, index, matcher  # noqa: F401
from ..read import pdf as extract_pdf
from ..review import report  # noqa: F401

text._classes()
text._nfkc_arrays()
keywords.dictionary()
if Scheme().segments_han:
    text._jieba()
extract_pdf.quiet_pypdf()
