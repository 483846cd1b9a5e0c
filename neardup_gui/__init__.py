"""neardup: find exact and near-duplicate text and PDF documents."""

__version__ = "0.1.0"
