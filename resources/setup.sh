#!/usr/bin/env bash
# Install neardup into a virtualenv, with the system packages its desktop app needs:
#     bash resources/setup.sh                      (README's first command: then .venv/bin/neardup-gui)
#     bash resources/setup.sh --venv DIR --extras test --also "PKG …"   (tests/run.sh)
#     bash resources/setup.sh --ocr                (also Tesseract OCR with Chinese and English, to read scans)
# Debian/Ubuntu packages (Qt's libraries, a CJK font, python3-venv where it is missing) are installed with
# apt-get as root, through sudo otherwise; where neither works they are named, and the app names them again
# at its start. Run it again at any time: it installs only what is missing and never deletes the virtualenv.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
extras=""
also=""
while [ $# -gt 0 ]; do
  case "$1" in
    --venv) venv="${2:?--venv needs a folder}"; shift 2 ;;
    --extras) extras="${2:?--extras needs a name}"; shift 2 ;;
    --also) also="$also ${2:?--also needs package names}"; shift 2 ;;
    --ocr) also="$also tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim"; shift ;;
    *) echo "usage: bash resources/setup.sh [--venv DIR] [--extras NAME] [--also 'PACKAGE …'] [--ocr]" >&2; exit 2 ;;
  esac
done

installed() {  # installed PACKAGE: really installed (not only its configuration left), under its
  # name or Ubuntu's 64-bit-time rename (libglib2.0-0 is libglib2.0-0t64 on Ubuntu 24.04)
  local name
  for name in "$1" "$1t64"; do
    [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$name" 2>/dev/null)" = "ii " ] && return 0
  done
  return 1
}

apt_install() {  # apt_install PACKAGE…: those not installed yet, as root or through sudo
  command -v dpkg-query >/dev/null 2>&1 || return 0  # not Debian/Ubuntu: nothing we can install
  local missing
  missing=$(for p in "$@"; do installed "$p" || echo "$p"; done | xargs)
  [ -n "$missing" ] || return 0
  local run=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then run="sudo"; else
      echo "neardup needs these system packages; please install them: apt-get install $missing" >&2
      return 0
    fi
  fi
  echo "installing system packages: $missing"
  { $run apt-get update -qq >/dev/null &&
    $run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null; } ||
    echo "could not install $missing; please install them: apt-get install $missing" >&2
}

# Python with venv and pip (Debian and Ubuntu ship ensurepip in a package of its own)
if ! command -v python3 >/dev/null 2>&1; then apt_install python3 python3-venv; fi
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then apt_install python3-venv; fi
# the desktop app's libraries and fonts: named once, in neardup_gui/gui/system_check.py (README.md lists them too)
packages=$(python3 -c 'from neardup_gui.gui.system_check import debian_packages; print(*debian_packages())')
apt_install $packages $also

# a virtualenv left without pip (python3-venv was missing when it was made) is made again
"$venv/bin/python" -m pip --version >/dev/null 2>&1 || python3 -m venv --clear "$venv"
target="."
[ -z "$extras" ] || target=".[$extras]"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e "$target"
# the app's own install (README's first command) puts it in the desktop's menu; a test or lint virtualenv does not
if [ -z "$extras" ]; then bash resources/install-desktop-entry.sh "$venv"; fi
