"""The status bar's scan progress: the phase in words, its pace and time left, the file being read, a bar
and a Cancel button; hidden when no scan runs."""

from __future__ import annotations

import os

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QToolButton, QWidget

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.jobs import PaceMeter, ProgressEvent

PHASES = {
    "discover": QT_TRANSLATE_NOOP("ScanStatus", "Finding files"),
    "read": QT_TRANSLATE_NOOP("ScanStatus", "Reading"),
    "fingerprint": QT_TRANSLATE_NOOP("ScanStatus", "Fingerprinting"),
    "ocr": QT_TRANSLATE_NOOP("ScanStatus", "Reading scans (OCR)"),
    "save": QT_TRANSLATE_NOOP("ScanStatus", "Saving"),
    "index": QT_TRANSLATE_NOOP("ScanStatus", "Indexing"),
    "boilerplate": QT_TRANSLATE_NOOP("ScanStatus", "Finding boilerplate"),
    "match": QT_TRANSLATE_NOOP("ScanStatus", "Grouping"),
    "report": QT_TRANSLATE_NOOP("ScanStatus", "Writing report"),
}
"""The scan's phases as the status bar names them (English here, translated where shown)."""


class ScanStatus(QWidget):
    """Owns the progress widgets it puts in ``bar``."""

    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        self.progress = QProgressBar(bar)
        self.progress.setMinimumWidth(260)
        self.progress.setTextVisible(True)
        self.label = QLabel("", bar)
        self.cancel_button = QToolButton(bar)
        self.cancel_button.setText(self.tr("Cancel"))
        bar.addPermanentWidget(self.label, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        self._pace = PaceMeter()  # rates and time left of the scan's phases
        self.hide()
        self.set_running(False)

    def set_running(self, running: bool) -> None:
        for w in (self.progress, self.label, self.cancel_button):
            w.setVisible(running)
        if running:
            self._pace = PaceMeter()
            self.label.setText(self.tr("Starting…"))

    def cancelling(self) -> None:
        self.label.setText(self.tr("Cancelling… keeping what was read"))

    def show_progress(self, event: ProgressEvent) -> None:
        pace = self._pace(event)
        phase = QCoreApplication.translate("ScanStatus", PHASES[event.phase]) if event.phase in PHASES else event.phase
        if event.total is None and not event.done:  # a phase begins, nothing counted yet: say it, not "0"
            self.progress.setRange(0, 0)
            self.progress.setFormat("")
            self.label.setText(self.tr("{phase}…").format(phase=phase))
            return
        if event.total:
            self.progress.setRange(0, event.total)
            self.progress.setValue(event.done)
            self.progress.setFormat(f"{event.done:,} / {event.total:,}")
        else:
            self.progress.setRange(0, 0)
            self.progress.setFormat(f"{event.done:,}")
        parts = [phase]
        if event.phase == "ocr" and event.done:
            parts.append(self.tr("{rate} pages/s").format(rate=f"{pace.rate:,.1f}"))
        if event.phase in ("read", "fingerprint") and event.done:
            parts.append(self.tr("{rate} files/s").format(rate=f"{pace.rate:,.0f}"))
            if event.bytes_done:
                parts.append(f"{pace.bytes_rate / 1e6:.1f} MB/s")
        if event.phase in ("ocr", "read", "fingerprint") and event.done and pace.left_text:
            parts.append(self.tr("about {time} left").format(time=pace.left_text))
        text = " · ".join(parts)
        if event.current:
            text += " — " + self.fontMetrics().elidedText(
                os.path.basename(event.current), Qt.TextElideMode.ElideMiddle, 320
            )
        self.label.setText(text)
