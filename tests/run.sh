#!/usr/bin/env bash
# Install what the tests need and run them: `bash tests/run.sh` (the README's test command; CI runs it).
#  - system packages Qt's offscreen platform, the browser and spreadsheet tests and CJK text need
#    (apt-get, as root);
#  - a fresh virtualenv in .venv with neardup and its test extras;
#  - pytest (benchmarks under tests/bench are not part of this run: python -m tests.bench.run).
set -euo pipefail
cd "$(dirname "$0")/.."
packages="libegl1 libgl1 libxkbcommon0 libfontconfig1 libglib2.0-0 libdbus-1-3 fonts-noto-cjk chromium libreoffice-calc-nogui poppler-utils"
if command -v dpkg >/dev/null 2>&1; then
  missing=$(for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done | xargs)
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "installing system packages: $missing"
      { apt-get update -qq >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null; } ||
        echo "could not install $missing; the tests that need them will say so" >&2
    else
      echo "tests need these system packages, please install them: $missing" >&2
    fi
  fi
fi
python3 -m venv --clear .venv
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest -q "$@"
