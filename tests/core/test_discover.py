import os
from pathlib import Path

import pytest

from neardup_gui.core.read.discover import WalkProblem, discover, resolve_roots


def _files(roots, **kw):
    return sorted(
        os.path.relpath(e.path, roots[0]) for e in discover(tuple(roots), **kw) if not isinstance(e, WalkProblem)
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "a" / "deep").mkdir(parents=True)
    (root / "b").mkdir()
    (root / ".hidden").mkdir()
    for rel in ["one.txt", "a/two.md", "a/deep/three.pdf", "b/four.TXT", "b/image.jpg", ".hidden/five.txt", ".six.txt"]:
        (root / rel).write_text("x")
    return root


def test_walks_recursively_text_and_pdf_only_no_hidden(tree):
    assert _files([str(tree)]) == ["a/deep/three.pdf", "a/two.md", "b/four.TXT", "one.txt"]


def test_hidden_on_request(tree):
    assert ".hidden/five.txt" in _files([str(tree)], hidden=True)
    assert ".six.txt" in _files([str(tree)], hidden=True)


def test_include_and_exclude_globs(tree):
    assert _files([str(tree)], include=("*.md",)) == ["a/two.md"]
    assert _files([str(tree)], exclude=("a",)) == ["b/four.TXT", "one.txt"]
    assert _files([str(tree)], exclude=("a/deep/*",)) == ["a/two.md", "b/four.TXT", "one.txt"]


def test_symlinks_never_lead_out_of_the_roots_and_loops_are_safe(tree, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("x")
    (tree / "escape").symlink_to(outside, target_is_directory=True)
    (tree / "file-link.txt").symlink_to(outside / "secret.txt")
    (tree / "a" / "loop").symlink_to(tree, target_is_directory=True)
    files = _files([str(tree)])
    assert not any("secret" in f for f in files)
    assert files == ["a/deep/three.pdf", "a/two.md", "b/four.TXT", "one.txt"]


def test_overlapping_roots_list_each_file_once(tree):
    roots = resolve_roots([str(tree), str(tree / "a"), str(tree / "one.txt")])
    paths = [e.path for e in discover(roots) if not isinstance(e, WalkProblem)]
    assert len(paths) == len(set(paths)) == 4


def test_odd_unicode_and_undecodable_names(tmp_path):
    root = tmp_path / "names"
    root.mkdir()
    (root / "简体中文 文件.txt").write_text("x")
    (root / "e\u0301t\u00e9 \U0001f600.md").write_text("x")
    (root / "=cmd.txt").write_text("x")
    os.close(os.open(os.path.join(os.fsencode(root), b"caf\xe9.txt"), os.O_CREAT | os.O_WRONLY))
    files = [e for e in discover((str(root),)) if not isinstance(e, WalkProblem)]
    assert len(files) == 4
    assert all(os.path.exists(e.path) for e in files)


def test_unreadable_folder_is_a_problem_not_a_crash(tmp_path):
    if os.geteuid() == 0:
        # root reads everything; make the folder vanish instead, which is what a share does under us
        root = tmp_path / "r"
        root.mkdir()
        problems = [e for e in discover((str(root / "gone"),)) if isinstance(e, WalkProblem)]
        assert problems and "disappeared" in problems[0].message
        return
    root = tmp_path / "r"
    (root / "locked").mkdir(parents=True)
    (root / "locked" / "x.txt").write_text("x")
    os.chmod(root / "locked", 0)
    try:
        problems = [e for e in discover((str(root),)) if isinstance(e, WalkProblem)]
        assert problems and "Permission" in problems[0].message
    finally:
        os.chmod(root / "locked", 0o755)


def test_missing_root_is_refused_with_its_name(tmp_path):
    with pytest.raises(ValueError, match="nowhere"):
        resolve_roots([str(tmp_path / "nowhere")])
