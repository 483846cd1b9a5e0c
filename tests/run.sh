#!/usr/bin/env bash
# Install what the tests need and run them: `bash tests/run.sh` (the README's test command; CI runs it).
#  - the app's system packages, Tesseract OCR, and what the browser, spreadsheet, document and PDF tests use
#    (resources/setup.sh: apt-get as root, sudo otherwise);
#  - a virtualenv of its own, .venv-test, with neardup and its test extras: the app's .venv is left alone;
#  - pytest (benchmarks under tests/bench are not part of this run: python -m tests.bench.run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash resources/setup.sh --venv .venv-test --extras test --ocr \
  --also "chromium libreoffice-calc-nogui libreoffice-writer-nogui poppler-utils"
export QT_QPA_PLATFORM=offscreen
exec .venv-test/bin/python -m pytest -q "$@"
