"""Text to fingerprints: normalising and tokenising, shingles, MinHash and SimHash, the scheme, OCR,
and the boilerplate records."""
