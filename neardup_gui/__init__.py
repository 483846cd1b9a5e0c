"""neardup: find exact and near-duplicate documents (text, PDF, Word, OpenDocument, RTF, EPUB, web pages)."""

__version__ = "0.1.0"
