#!/usr/bin/env bash
# Put neardup in the desktop's menu for this user: its .desktop file (starting VENV's neardup-gui), its icon
# and its AppStream metainfo, under $XDG_DATA_HOME (default ~/.local/share): our three files, and the menu's MIME
# cache of that folder refreshed (update-desktop-database, where there is one).
#     bash resources/install-desktop-entry.sh VENV        (resources/setup.sh runs it for .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:?usage: install-desktop-entry.sh VENV}"
[ "$(uname -s)" = Linux ] || exit 0  # macOS and Windows menus are not made of .desktop files
data="${XDG_DATA_HOME:-$HOME/.local/share}"
gui="$(cd "$venv/bin" && pwd)/neardup-gui"
mkdir -p "$data/applications" "$data/icons/hicolor/scalable/apps" "$data/metainfo"
# the venv is not on PATH: the menu starts its own neardup-gui (a path with spaces is quoted, as the spec says)
sed "s|^Exec=neardup-gui |Exec=\"$gui\" |" resources/neardup.desktop > "$data/applications/neardup.desktop.part"
mv -f "$data/applications/neardup.desktop.part" "$data/applications/neardup.desktop"
cp -f resources/neardup.svg "$data/icons/hicolor/scalable/apps/neardup.svg"
cp -f resources/neardup.metainfo.xml "$data/metainfo/neardup.metainfo.xml"
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$data/applications" 2>/dev/null || true
fi
echo "neardup is in the desktop's menu: $data/applications/neardup.desktop"
