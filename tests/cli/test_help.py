"""`neardup scan --help` lists what a scan reads (#42): every type of the report with the endings read as it, in
80 columns."""

from __future__ import annotations

import re

import pytest

from neardup_gui.cli import build_parser
from neardup_gui.core.read.extract import KIND_OF_SUFFIX, KINDS


@pytest.mark.parametrize("command", [["scan"], ["spark", "scan"]])
def test_scan_help_lists_every_type_and_its_endings_in_80_columns(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        build_parser().parse_args([*command, "--help"])
    shown = capsys.readouterr().out
    assert max(len(line) for line in shown.splitlines()) <= 80
    said = " ".join(shown.split())  # the help's last paragraph, wrapped to the width
    assert "Files are read by their name's ending" in said and "only files matching, of the types listed" in said
    for kind in KINDS - {"image"}:
        listed = re.search(rf"\b{kind} \(([^)]*)\)", said)
        assert listed, kind
        assert set(listed[1].split()) == {s for s, k in KIND_OF_SUFFIX.items() if k == kind}, kind
    assert "With --ocr also: image (.png" in said and "--ocr-languages LANGUAGES" in said  # the job reads scans too
