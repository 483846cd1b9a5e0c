"""The SQLite store: documents, fingerprints and what is kept between runs; the writer process, the spill
files, and Spark results loaded into it."""
