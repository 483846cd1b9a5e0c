"""Help ▸ User Guide (a short guide in the app's language, shipped with the package and shown in the app)
and Help ▸ Keyboard Shortcuts (made from the window's own actions, so it never lists a key that is not
there)."""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..core import i18n


def guide_html(language: str) -> str:
    """The user guide in ``language`` (English where there is none in it)."""
    folder = resources.files("neardup_gui.resources") / "help"
    for name in (f"guide_{language}.html", f"guide_{i18n.SOURCE_LANGUAGE}.html"):
        page = folder / name
        if page.is_file():
            return page.read_text(encoding="utf-8")
    return ""


def _with_close_button(dialog: QDialog, content: QWidget) -> None:
    """Lay out a read-only window: its content above a Close button."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(content)
    layout.addWidget(buttons)


class UserGuide(QDialog):
    """The guide in a browser pane; links to the web open outside the app."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("neardup User Guide"))
        self.browser = QTextBrowser(self)
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(guide_html(i18n.language()))
        self.browser.setAccessibleName(self.tr("User guide"))
        _with_close_button(self, self.browser)
        self.resize(720, 640)


def _plain(text: str) -> str:
    """A menu text without its mnemonic marker or trailing ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def shortcut_rows(owner: QWidget) -> list[tuple[str, str]]:
    """(what it does, keys) for every action and button under ``owner`` that has a shortcut, in the
    order they were made, each once."""
    rows: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    items: list[QAction | QAbstractButton] = [*owner.findChildren(QAction), *owner.findChildren(QAbstractButton)]
    for item in items:
        keys = item.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        name = _plain(item.text() or item.toolTip())
        if keys and name and (name, keys) not in seen:
            seen.add((name, keys))
            rows.append((name, keys))
    return rows


class ShortcutList(QDialog):
    """Every keyboard shortcut of the window, as a two-column table."""

    def __init__(self, owner: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        rows = shortcut_rows(owner)
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (name, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            keys_item = QTableWidgetItem(keys)
            keys_item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
            self.table.setItem(row, 1, keys_item)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        _with_close_button(self, self.table)
        self.resize(520, 480)
