#!/usr/bin/env bash
# Install what the tests need and run them: `bash tests/run.sh` (the README's test command). CI runs it twice,
# `-m "not e2e"` (the fast tier) then `-m e2e`: set-up again costs seconds, as it installs only what is missing.
#  - the app's system packages, Tesseract OCR, and what the browser, spreadsheet, document and PDF tests use
#    (resources/setup.sh: apt-get as root, sudo otherwise), and Java for the Spark job's tests in local[2]
#    (default-jre-headless: OpenJDK 17 on Debian 12; 21 on Ubuntu 24.04 and Debian 13, which have no 17);
#  - a virtualenv of its own, .venv-test, with neardup and its test and spark extras: the app's .venv is left alone;
#  - pytest (benchmarks under tests/bench are not part of this run: python -m tests.bench.run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash resources/setup.sh --venv .venv-test --extras test,spark --ocr \
  --also "chromium libreoffice-calc-nogui libreoffice-writer-nogui libreoffice-impress-nogui python3-uno poppler-utils default-jre-headless desktop-file-utils appstream"
export QT_QPA_PLATFORM=offscreen
exec .venv-test/bin/python -m pytest -q "$@"
