"""The app speaks Chinese completely: catalogues up to date and complete, every string of the window, its
menus and dialogs Chinese under zh_CN (Qt's own buttons too), the language taken from the locale or from
Preferences, and English plurals right."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QModelIndex, QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDialog,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTableView,
    QTabWidget,
    QTreeView,
    QWidget,
)

from neardup_gui.core import i18n
from neardup_gui.core.models import Document
from neardup_gui.core.read.extract import KIND_OF_SUFFIX, extract
from neardup_gui.gui import settings as app_settings
from neardup_gui.gui.actions import shortcut_rows
from neardup_gui.gui.app import create_app
from neardup_gui.gui.help import ShortcutList, UserGuide
from neardup_gui.gui.main_window import MainWindow
from neardup_gui.gui.preferences import PreferencesDialog
from neardup_gui.gui.problems_page import ProblemsPage
from neardup_gui.gui.spark_import import SparkImportDialog
from tests.conftest import english_texts, write_pdf
from tests.gui.conftest import scan

REPO = Path(__file__).resolve().parents[2]
TRANSLATIONS = REPO / "resources" / "translations"
FIELD = re.compile(r"\{\w*\}")

# Words a Chinese interface keeps in Latin letters: names, formats, keys, units, and English named in itself
# (the language menu).
KEPT = {
    "neardup",
    "MinHash",
    "SimHash",
    "Jaccard",
    "Hamming",
    "PDF",
    "HTML",
    "CSV",
    "JSON",
    "Qt",
    "PySide",
    "Ctrl",
    "Shift",
    "Del",
    "Esc",
    "Return",
    "Enter",
    "Space",
    "Tab",
    "Alt",
    "GB",
    "MB",
    "KB",
    "TB",
    "GiB",
    "MiB",
    "UTF",
    "Markdown",
    "English",
    "GB18030",
    "Big5",
    "OCR",
    "SQLite",
    "Spark",  # Apache Spark, a name
    "Linux",
    "Windows",
    "macOS",
    "OK",
    "Backspace",
    "Home",
    "End",
    "Delete",
    "Ins",
    "PgUp",
    "PgDown",
    "Up",
    "Down",
    "Left",
    "Right",
    "Word",
    "OpenDocument",
    "RTF",
    "EPUB",
    "DOCX",
    "ODT",
    "DOC",
    "XLS",
    "XLSX",
    "ODS",
    "PPT",
    "PPTX",
    "ODP",
    "Excel",
    "PowerPoint",
    "WPS",
    "Tesseract",
}  # formats' and programs' names


@pytest.fixture
def english_again():
    yield
    create_app([], language="en")


@pytest.mark.e2e
def test_catalogues_are_what_the_source_and_lrelease_make(tmp_path):
    """Every string of the source is in the catalogues, none that is gone, and the .qm are compiled from them."""
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        ["bash", str(TRANSLATIONS / "update.sh"), str(tmp_path)],
        check=True,
        cwd=REPO,
        env={**os.environ, "BIN": str(bin_dir)},
    )
    for name in ("neardup_zh_CN.ts", "neardup_en.ts", "neardup_zh_CN.qm", "neardup_en.qm"):
        assert (tmp_path / name).read_bytes() == (TRANSLATIONS / name).read_bytes(), (
            f"{name} is out of date: run bash resources/translations/update.sh and translate what is new"
        )


def test_every_translated_call_of_the_source_is_in_the_catalogue():
    """lupdate skips a call it cannot parse (``translate("Ctx", "…", None, len(rows))``: the parenthesis
    inside): its string would stay English in Chinese. Each call with a fixed context and text is there."""
    catalogue = {(context, message.findtext("source")) for context, message in _messages("neardup_zh_CN.ts")}
    calls = 0
    for path in sorted((REPO / "neardup_gui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            context, source = node.args[:2]
            if name in {"translate", "QT_TRANSLATE_NOOP"} and all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in (context, source)
            ):
                calls += 1
                assert (context.value, source.value) in catalogue, f"{path.name}:{node.lineno}: not in the catalogue"
    assert calls > 200  # the whole source, not a sample


def _messages(name: str):
    root = ET.parse(TRANSLATIONS / name).getroot()
    for context in root.iter("context"):
        for message in context.iter("message"):
            yield context.findtext("name"), message


def test_every_chinese_string_is_translated_with_the_same_fields():
    messages = list(_messages("neardup_zh_CN.ts"))
    assert len(messages) > 300  # the whole app, not a sample
    for context, message in messages:
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None and translation.get("type") is None, f"untranslated: {context}: {source!r}"
        forms = [f.text or "" for f in translation.iter("numerusform")] or [translation.text or ""]
        for form in forms:
            assert form.strip(), f"empty translation: {context}: {source!r}"
            assert sorted(FIELD.findall(form)) == sorted(FIELD.findall(source)), f"fields differ: {source!r}"
            assert ("%n" in form) == ("%n" in source), f"%n differs: {source!r}"
            assert ("%Ln" in form) == ("%Ln" in source), f"%Ln differs: {source!r}"
            if re.search(r"[A-Za-z]{4,}", source) and not re.search(r"[\u4e00-\u9fff]", form):
                assert _latin_words(form) <= KEPT, f"left in English: {context}: {source!r} -> {form!r}"


def test_english_plurals_come_from_the_english_catalogue(qapp, english_again):
    create_app([], language="en")
    plural = [(c, m.findtext("source")) for c, m in _messages("neardup_en.ts")]
    assert plural, "no plural strings"
    context, source = plural[0]
    assert "%n" in source
    one, many = (QCoreApplication.translate(context, source, None, n) for n in (1, 2))
    assert one != many and "1" in one and "2" in many


def _latin_words(text: str) -> set[str]:
    text = re.sub(r"(?:[A-Za-z]:)?[\w.\-/\\]*[/\\][\w.\-/\\]*", " ", text)  # paths
    endings = "|".join(["db", "json", *(suffix[1:] for suffix in KIND_OF_SUFFIX)])  # every ending neardup reads
    text = re.sub(rf"[\w\-]*\.(?:{endings})\b", " ", text)  # file names and types
    text = re.sub(r"<[^>]+>", " ", text)  # markup
    text = re.sub(r"\{\w*\}", " ", text)  # fields
    text = re.sub(r"&\w+;", " ", text)
    text = re.sub(r"\bneardup(?: [a-z][a-z-]*)+|--[\w-]+", " ", text)  # commands and their options, as typed
    return {w for w in re.findall(r"[A-Za-z][A-Za-z0-9]{2,}", text)}


def _texts(widget: QWidget, documents: tuple[QWidget, ...] = ()) -> list[str]:
    """Everything a person can read on ``widget`` and its children, tooltips and menus included, but the
    text of ``documents`` (labels that quote the documents themselves)."""
    found: list[str] = []
    widgets = [widget, *widget.findChildren(QWidget)]
    for w in widgets:
        if w in documents:
            continue
        found += [w.toolTip(), w.statusTip(), w.whatsThis(), w.accessibleName()]
        if w.isWindow():
            found.append(w.windowTitle())
        if isinstance(w, QLabel | QAbstractButton | QLineEdit):
            found.append(w.text())
        if isinstance(w, QLineEdit):
            found.append(w.placeholderText())
        if isinstance(w, QGroupBox):
            found.append(w.title())
        if isinstance(w, QComboBox):
            found += [w.itemText(i) for i in range(w.count())]
            found += [str(w.itemData(i, 3) or "") for i in range(w.count())]  # item tooltips
        if isinstance(w, QTabWidget):
            found += [w.tabText(i) for i in range(w.count())] + [w.tabToolTip(i) for i in range(w.count())]
        if isinstance(w, QTreeView | QTableView) and w.model() is not None:
            model = w.model()
            for section in range(model.columnCount(QModelIndex())):
                for role in (0, 3):  # display, tooltip
                    found.append(str(model.headerData(section, Qt.Orientation.Horizontal, role) or ""))
        if isinstance(w, QMenu):
            found.append(w.title())
    for action in widget.findChildren(QAction):
        found += [action.text(), action.toolTip(), action.statusTip()]
    return [t for t in found if t]


def _english(texts: list[str], documents_words: frozenset[str] = frozenset()) -> list[str]:
    """The texts with a word of English, other than names and the documents' own words (a group's topic)."""
    return sorted({t for t in texts if _latin_words(t) - KEPT - documents_words})


@pytest.mark.parametrize("mode", ["folder", "save"])
def test_qts_file_dialogs_speak_chinese(qtbot, tmp_path, english_again, mode):
    """The dialogs the app opens (Add folder, Move marked into, Export report) as Qt draws them where the
    desktop has none of its own: Qt's catalogue lacks some of their words, ours has them."""
    create_app([], language="zh_CN")
    dialog = QFileDialog(None, "", str(tmp_path))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    if mode == "folder":
        dialog.setFileMode(QFileDialog.FileMode.Directory)
    else:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(["HTML (*.html)"])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert _english(_texts(dialog)) == []


@pytest.mark.e2e
@pytest.mark.slow
def test_the_window_speaks_only_chinese(qtbot, make_settings, uploads, english_again):
    create_app([], language="zh_CN")
    w = MainWindow(make_settings(), folders=[str(uploads)])
    qtbot.addWidget(w)
    w.show()
    assert _english(_texts(w)) == []  # the empty window, before a scan
    scan(qtbot, w)
    qtbot.waitUntil(lambda: w.groups.group_model.rowCount() > 0, timeout=60_000)
    model = w.groups.group_model
    w.groups.tree.setCurrentIndex(model.index(0, 0, model.index(0, 0)))  # a member: the pair view fills
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    texts = _texts(w, documents=(w.groups.diff.passage, w.groups.diff.title))
    texts.append(w.statusBar().currentMessage())  # the scan's summary
    problems = w.problems.model  # a password-protected PDF: its status and what to do, in Chinese
    texts += [str(problems.index(0, col).data()) for col in (1, 2)]
    assert re.search(r"[\u4e00-\u9fff]", problems.index(0, 2).data())
    assert any(re.search(r"[\u4e00-\u9fff]", t) for t in texts)
    topics = frozenset(word for topic in w.view.topics.values() for word in topic)
    assert topics  # the licences' groups are named by their words, in English: the documents', not the window's
    assert _english(texts, topics) == []
    dialogs: list[QDialog] = [
        PreferencesDialog(w.preferences(), w),
        ShortcutList(shortcut_rows(), w),
        UserGuide(w),
        SparkImportDialog(w.dialogs, str(uploads), w),  # empty: it says what to choose first
    ]
    for dialog in dialogs:
        assert _english(_texts(dialog)) == [], type(dialog).__name__
    box = QMessageBox(QMessageBox.Icon.Question, "", "", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    assert {b.text() for b in box.buttons()} <= {"是(&Y)", "否(&N)", "是", "否"}  # Qt's own catalogue
    w.close()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_problems_tab_says_why_in_plain_words_and_keeps_the_readers_own_in_the_tooltip(
    qtbot, tmp_path, english_again, language
):
    create_app([], language=language)
    path = write_pdf(tmp_path / "report.pdf", english_texts()["BSD"])
    path.write_bytes(path.read_bytes()[:1500])  # a download cut short
    found = extract("pdf", path.read_bytes())
    page = ProblemsPage()
    qtbot.addWidget(page)
    page.set_documents([Document(1, str(path), 1500, 0, "pdf", found.status, found.message, 0, None)])
    shown = page.model.index(0, 2).data()
    tooltip = page.model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    said = "PdfStreamError: Stream has ended unexpectedly"  # pypdf's words: only in the tooltip
    if language == "en":
        assert shown == (
            "Damaged file: its end is missing (a download or copy cut short?). Download or copy it again, or open "
            "it in its program and save it again."
        )
        assert tooltip == f"{shown}\nDetails: {said}"
    else:
        assert re.search(r"[\u4e00-\u9fff]", shown) and _english([shown]) == [], shown
        assert tooltip == f"{shown}\n详细信息：{said}"


@pytest.mark.e2e
def test_the_language_follows_the_locale():
    code = (
        "from neardup_gui.gui.app import create_app; from neardup_gui.core import i18n; "
        "from PySide6.QtCore import QCoreApplication as Q; create_app([]); "
        "print(i18n.language(), Q.translate('QPlatformTheme', 'Cancel'))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env["QT_QPA_PLATFORM"] = "offscreen"
    chinese = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "LANG": "zh_CN.UTF-8"},
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout.split()
    english = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "LANG": "en_US.UTF-8"},
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout.split()
    assert chinese == ["zh_CN", "取消"]
    assert english == ["en", "Cancel"]


def test_a_language_chosen_in_preferences_is_remembered(qtbot, window, settings_file):
    from tests.gui.conftest import answer_dialog

    w = window()
    seen = answer_dialog(
        qtbot, PreferencesDialog, lambda d: (d.language.setCurrentIndex(d.language.findData("zh_CN")), d.accept())
    )
    answer_dialog(qtbot, QMessageBox, lambda box: box.button(QMessageBox.StandardButton.No).click())
    w.show_preferences()
    assert seen
    w.close()
    assert app_settings.load(QSettings(str(settings_file), QSettings.Format.IniFormat)).language == "zh_CN"
    assert i18n.LANGUAGES["zh_CN"] == "简体中文"


def test_every_control_says_what_it_does(qtbot, make_settings, uploads):
    """Each button, menu, box, slider and field of the window and of Preferences has a tooltip (the
    standard OK/Cancel and Qt's own parts aside), so nobody has to guess."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractSpinBox,
        QComboBox,
        QDialogButtonBox,
        QLineEdit,
        QScrollBar,
        QSlider,
        QTabBar,
    )

    w = MainWindow(make_settings(), folders=[str(uploads)])
    qtbot.addWidget(w)
    controls = (QAbstractButton, QComboBox, QAbstractSpinBox, QSlider, QLineEdit)
    silent = []
    for top in (w, PreferencesDialog(w.preferences(), w)):
        for c in top.findChildren(QWidget):
            if not isinstance(c, controls) or c.objectName().startswith("qt_"):
                continue
            if isinstance(c.parent(), QTabBar | QScrollBar | QDialogButtonBox | QLineEdit):
                continue  # Qt's parts, and OK / Cancel
            if not c.toolTip().strip():
                silent.append(f"{type(top).__name__}: {type(c).__name__} {getattr(c, 'text', lambda: '')()!r}")
    assert silent == []
