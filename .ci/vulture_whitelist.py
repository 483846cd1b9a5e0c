"""Names vulture (.ci/run: "lint: dead code") takes for unused that are used where it cannot see: read
with neardup_gui ([tool.vulture] paths in pyproject.toml), never imported or run. The methods Qt and
HTMLParser call by name (paintEvent, eventFilter, handle_starttag...) are ignore_names there instead."""
# ruff: noqa

# expat reads the handlers and the setting parse_xml gives its parser (core/read/containers.py)
_.buffer_text
_.StartDoctypeDeclHandler
_.EntityDeclHandler
_.StartElementHandler
_.EndElementHandler
_.CharacterDataHandler

# Qt calls eventFilter(watched, event); the folder list's filter of drops reads the event only (gui/folders.py)
watched
