"""The offer made when neardup's own database is damaged: keep it aside (never deleted) and start anew."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget


def offer_new_database(parent: QWidget, path: str, message: str) -> bool:
    """Ask whether to start a new database; ``message`` is the error, shown as the details."""

    box = QMessageBox(
        QMessageBox.Icon.Critical,
        QCoreApplication.translate("MainWindow", "The database is damaged"),
        QCoreApplication.translate("MainWindow", "neardup's database is damaged and cannot be read:\n{path}").format(
            path=path
        ),
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setDetailedText(message)
    box.setInformativeText(
        QCoreApplication.translate(
            "MainWindow",
            "Your documents are not affected: the database holds what neardup found in them, "
            "made again by the next scan, and your \u201cnot a duplicate\u201d decisions, which "
            "a new database starts without. The damaged one is kept beside it.",
        )
    )
    start = box.addButton(
        QCoreApplication.translate("MainWindow", "Start a New Database"), QMessageBox.ButtonRole.AcceptRole
    )
    box.setObjectName("damaged-database")
    box.exec()
    return box.clickedButton() is start
