"""Finding duplicates: candidates (LSH bands, SimHash blocks), exact verification, the spanning forests,
groups, and the boilerplate analysis."""
