"""Imported once by the fork server that starts reader workers (Linux): everything a worker needs is
loaded and warmed here, jieba's dictionary included, so each worker forks ready instead of spending
about a second loading it, and the dictionary's memory is shared between workers."""

from __future__ import annotations

import charset_normalizer  # noqa: F401
import numpy  # noqa: F401
import pypdf  # noqa: F401

from . import extract, text

text._classes()
text._jieba()
extract._quiet_pypdf()
