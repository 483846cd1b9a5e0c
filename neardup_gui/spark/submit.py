"""The file spark-submit runs: ``spark-submit [--master URL] [--py-files neardup.zip] \\
.../neardup_gui/spark/submit.py INPUT --out DIR [options of neardup spark scan]``."""

import sys

from neardup_gui.cli import main

if __name__ == "__main__":
    sys.exit(main(["spark", "scan", *sys.argv[1:]]))
