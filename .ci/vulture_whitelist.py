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

# Qt calls eventFilter(watched, event); the filter of folders dropped onto the window reads the event only (gui/folders.py)
watched

# the catalogue's copy of argparse's own words: lupdate reads them here, argparse asks for them by text (cli.py)
ARGPARSE_WORDS
# Qt's own words its catalogues lack, for ours: lupdate reads them there, Qt asks for them by text (translation.py)
QT_WORDS
# a code point's class 0, the table's default: named for the reader of chars._classes
SEPARATOR
# part of a scheme's identity: fingerprints made under another hash are made again (scheme.py)
_.feature_hash
# what the benchmarks and the quality harness measure (tests/bench), and the tests with them
text_simhash
hash_tokens
_.verified_pairs
shared_passages_between
# columns and states the GUI tests name (gui/item_models.py, gui/pairs_page.py, gui/worker.py)
TYPE_COLUMN
TOGETHER
_.busy
# run by resources/setup.sh (python -c), which installs the packages it lists
debian_packages

# Qt reads the option the delegate fills: a path column's text cut in its middle (gui/delegates.py)
_.textElideMode
