"""Help ▸ User Guide (a short guide in the app's language, shipped with the package and shown in the app),
Help ▸ Keyboard Shortcuts (the rows made from the table of actions, so it never lists a key that is not there)
and Help ▸ About."""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
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


class ShortcutList(QDialog):
    """Every keyboard shortcut of the window, as a two-column table."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        """``rows``: (what it does, keys), as ``actions.shortcut_rows`` gives them."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
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


def show_about(parent: QWidget, database: str) -> None:
    """Help ▸ About: the version, the method, the libraries' versions and where the database is."""
    import platform

    import jieba
    import numpy
    import pypdf
    import PySide6
    from PySide6.QtCore import qVersion

    from .. import __version__

    QMessageBox.about(
        parent,
        QCoreApplication.translate("MainWindow", "About neardup"),
        f"<h3>neardup {__version__}</h3><p>"
        + QCoreApplication.translate(
            "MainWindow",
            "Finds exact and near-duplicate documents with SimHash (Charikar; Manku et al.) and MinHash "
            "(Broder), verified exactly.",
        )
        + "</p>"
        f"<p>Python {platform.python_version()} · Qt {qVersion()} · PySide6 {PySide6.__version__} · "
        f"numpy {numpy.__version__} · jieba {jieba.__version__} · pypdf {pypdf.__version__}</p><p>"
        + QCoreApplication.translate("MainWindow", "Database: {path}").format(path=database)
        + "</p>",
    )
