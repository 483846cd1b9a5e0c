"""neardup on Apache Spark: the desktop engine's fingerprints, candidates, verification and groups, run
over collections larger than one machine (``neardup spark scan``), with a result the app imports
(``neardup import-spark``). Imports ``core``, never ``gui``; pyspark is needed only by ``job``."""
