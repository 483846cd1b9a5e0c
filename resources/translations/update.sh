#!/usr/bin/env bash
# Refresh the translation catalogues from the source and compile them; run it after changing any
# user-visible string, then translate what is new in neardup_zh_CN.ts (Qt Linguist, or any editor) and
# run it again. tests/gui/test_translations.py runs it into a scratch folder and fails while a catalogue
# or its .qm differs from what it makes.
#   neardup_zh_CN.ts  every string, translated
#   neardup_en.ts     only the plural forms of English ("%n file(s)" -> "1 file" / "2 files")
# Usage: bash resources/translations/update.sh [FOLDER]   (FOLDER: where to write; default: beside this script,
# else the catalogues here are copied there first). The tools (pyside6-lupdate, pyside6-lrelease) ship in the
# PySide6 wheel: BIN names the folder holding them (default .venv/bin).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=resources/translations
out="${1:-$here}"
bin="${BIN:-.venv/bin}"
if [ "$out" != "$here" ]; then
  mkdir -p "$out"
  cp "$here"/*.ts "$out"/
fi
mapfile -t sources < <(find neardup_gui -name '*.py' | LC_ALL=C sort)
lupdate=("$bin/pyside6-lupdate" -silent -locations none -no-obsolete -source-language en "${sources[@]}")
"${lupdate[@]}" -target-language zh_CN -ts "$out/neardup_zh_CN.ts"
"${lupdate[@]}" -target-language en -pluralonly -ts "$out/neardup_en.ts"
# English plural forms follow the source's "(s)" / "(es)": "%n file(s)" -> "%n file", "%n files"
"$bin/python" - "$out/neardup_en.ts" <<'PY'
import sys
import xml.etree.ElementTree as ET

from neardup_gui.core.i18n import english_plural

path = sys.argv[1]
tree = ET.parse(path)
for message in tree.iter("message"):
    translation = message.find("translation")
    if translation is not None and translation.get("type") == "unfinished":
        source = message.findtext("source") or ""
        for form, n in zip(translation.iter("numerusform"), (1, 2)):
            form.text = english_plural(source, n)
        del translation.attrib["type"]
with open(path, "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
    tree.write(out, encoding="unicode")
    out.write("\n")
PY
for ts in "$out"/neardup_*.ts; do
  "$bin/pyside6-lrelease" -silent "$ts" -qm "${ts%.ts}.qm"
done
