"""Method and threshold controls, with a histogram of pair similarities and the cut drawn on it."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QWidget,
)

from ..core.models import HAMMING_MAX, JACCARD_MIN, Method, Thresholds
from ..core.review import Histogram

METHOD_LABELS = {
    Method.MINHASH: "MinHash (Jaccard)",
    Method.SIMHASH: "SimHash (Hamming)",
    Method.BOTH: "Both (either matches)",
}


class HistogramWidget(QWidget):
    """Bars of pair counts per similarity bin (log scale) and the current threshold as a line."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.histogram: Histogram | None = None
        self.threshold = 0.0
        self.setMinimumHeight(64)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip("How many document pairs lie at each similarity. Pairs on the marked side of the line "
                        "are grouped; a valley in the bars is a natural place for the cut.")

    def set_data(self, histogram: Histogram | None, threshold: float) -> None:
        self.histogram, self.threshold = histogram, threshold
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        area = QRectF(self.rect()).adjusted(4, 4, -4, -16)
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text_colour = palette.color(QPalette.ColorRole.PlaceholderText)
        h = self.histogram
        if h is None or not h.counts:
            painter.setPen(text_colour)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "pair similarities appear after a scan")
            return
        import math

        peak = max(math.log1p(c) for c in h.counts) or 1.0
        lo, hi = h.edges[0], h.edges[-1]
        span = hi - lo
        accent = palette.color(QPalette.ColorRole.Highlight)
        muted = QColor(accent)
        muted.setAlpha(90)
        simhash = h.method is Method.SIMHASH
        for i, count in enumerate(h.counts):
            x0 = area.left() + (h.edges[i] - lo) / span * area.width()
            x1 = area.left() + (h.edges[i + 1] - lo) / span * area.width()
            height = math.log1p(count) / peak * area.height()
            grouped = (h.edges[i + 1] - 1 <= self.threshold) if simhash else (h.edges[i] >= self.threshold - 1e-9)
            bar = QRectF(x0 + 1, area.bottom() - height, max(1.0, x1 - x0 - 2), height)
            painter.fillRect(bar, accent if grouped else muted)
        x = area.left() + (self.threshold + (1 if simhash else 0) - lo) / span * area.width()
        pen = QPen(palette.color(QPalette.ColorRole.Text))
        pen.setWidth(2)
        painter.setPen(pen)
        painter.drawLine(int(x), int(area.top()), int(x), int(area.bottom()))
        painter.setPen(text_colour)
        label_y = int(self.height() - 2)
        painter.drawText(int(area.left()), label_y, f"{lo:g}" if simhash else f"{lo:.1f}")
        right = f"{hi - 1:g} bits" if simhash else "1.0"
        painter.drawText(int(area.right() - painter.fontMetrics().horizontalAdvance(right)), label_y, right)


class ThresholdsPanel(QWidget):
    """Emits ``changed`` with new Thresholds a moment after the person stops moving a control."""

    changed = Signal(object)

    def __init__(self, thresholds: Thresholds, parent=None) -> None:
        super().__init__(parent)
        self.method = QComboBox(self)
        for method, label in METHOD_LABELS.items():
            self.method.addItem(label, method)
        self.method.setToolTip("MinHash groups by Jaccard similarity of 3-word (or 3-character) shingles, verified "
                               "exactly; SimHash by differing bits of a 64-bit fingerprint; "
                               "Both groups a pair either one finds")
        self.hamming_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.hamming_slider.setRange(0, HAMMING_MAX)
        self.hamming_spin = QSpinBox(self)
        self.hamming_spin.setRange(0, HAMMING_MAX)
        self.hamming_spin.setSuffix(" bits")
        hamming_tip = ("SimHash: two documents are near-duplicates when their 64-bit fingerprints differ in at most "
                       "this many bits (8 reproduces Jaccard ≥ 0.8 best in our measurements; 3 is the classic choice "
                       "for near-identical web pages)")
        self.hamming_slider.setToolTip(hamming_tip)
        self.hamming_spin.setToolTip(hamming_tip)
        self.jaccard_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.jaccard_slider.setRange(round(JACCARD_MIN * 100), 100)
        self.jaccard_spin = QDoubleSpinBox(self)
        self.jaccard_spin.setRange(JACCARD_MIN, 1.00)
        self.jaccard_spin.setSingleStep(0.01)
        self.jaccard_spin.setDecimals(2)
        jaccard_tip = ("MinHash: two documents are near-duplicates when at least this share of their shingles is "
                       "shared (Jaccard similarity)")
        self.jaccard_slider.setToolTip(jaccard_tip)
        self.jaccard_spin.setToolTip(jaccard_tip)
        self.boilerplate = QCheckBox("Ignore boilerplate", self)
        self.boilerplate.setToolTip(
            "Passages found in 10 % or more of the scanned documents (page footers, letterheads, licence headers, "
            "e-mail disclaimers) are left out when Jaccard is measured, so that they do not make unrelated documents "
            "look alike. Turn off when a large family of near-copies of one form is what you are looking for.")
        self.histogram = HistogramWidget(self)
        self.counts = QLabel("", self)
        self.counts.setToolTip("Groups and documents at these thresholds")

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel("Method", self), 0, 0)
        grid.addWidget(self.method, 0, 1, 1, 2)
        grid.addWidget(self.counts, 0, 3)
        self.hamming_label = QLabel("Hamming ≤", self)
        grid.addWidget(self.hamming_label, 1, 0)
        grid.addWidget(self.hamming_slider, 1, 1)
        grid.addWidget(self.hamming_spin, 1, 2)
        self.jaccard_label = QLabel("Jaccard ≥", self)
        grid.addWidget(self.jaccard_label, 2, 0)
        grid.addWidget(self.jaccard_slider, 2, 1)
        grid.addWidget(self.jaccard_spin, 2, 2)
        grid.addWidget(self.boilerplate, 3, 1, 1, 2)
        grid.addWidget(self.histogram, 1, 3, 3, 1)
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(3, 3)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(120)
        self._debounce.timeout.connect(lambda: self.changed.emit(self.thresholds()))
        self.hamming_slider.valueChanged.connect(self.hamming_spin.setValue)
        self.hamming_spin.valueChanged.connect(self.hamming_slider.setValue)
        self.jaccard_slider.valueChanged.connect(lambda v: self.jaccard_spin.setValue(v / 100))
        self.jaccard_spin.valueChanged.connect(lambda v: self.jaccard_slider.setValue(round(v * 100)))
        for signal in (self.hamming_spin.valueChanged, self.jaccard_spin.valueChanged, self.method.currentIndexChanged,
                       self.boilerplate.toggled):
            signal.connect(self._schedule)
        self.set_thresholds(thresholds)

    def set_thresholds(self, thresholds: Thresholds) -> None:
        controls = (self.method, self.hamming_spin, self.hamming_slider, self.jaccard_spin, self.jaccard_slider,
                    self.boilerplate)
        for w in controls:
            w.blockSignals(True)
        self.method.setCurrentIndex(self.method.findData(thresholds.method))
        self.hamming_spin.setValue(thresholds.hamming)
        self.hamming_slider.setValue(thresholds.hamming)
        self.jaccard_spin.setValue(thresholds.jaccard)
        self.jaccard_slider.setValue(round(thresholds.jaccard * 100))
        self.boilerplate.setChecked(thresholds.ignore_boilerplate)
        for w in controls:
            w.blockSignals(False)
        self._enable()

    def thresholds(self) -> Thresholds:
        return Thresholds(Method(self.method.currentData()), self.hamming_spin.value(),
                          round(self.jaccard_spin.value(), 2), self.boilerplate.isChecked())

    def _schedule(self) -> None:
        self._enable()
        self._debounce.start()

    def _enable(self) -> None:
        method = Method(self.method.currentData())
        simhash_controls: tuple[QWidget, ...] = (self.hamming_slider, self.hamming_spin, self.hamming_label)
        minhash_controls: tuple[QWidget, ...] = (self.jaccard_slider, self.jaccard_spin, self.jaccard_label,
                                                 self.boilerplate)
        for w in simhash_controls:
            w.setEnabled(method in (Method.SIMHASH, Method.BOTH))
        for w in minhash_controls:
            w.setEnabled(method in (Method.MINHASH, Method.BOTH))

    def histogram_method(self) -> Method:
        method = Method(self.method.currentData())
        return Method.SIMHASH if method is Method.SIMHASH else Method.MINHASH

    def show_histogram(self, histogram: Histogram | None) -> None:
        t = self.thresholds()
        self.histogram.set_data(histogram, float(t.hamming) if self.histogram_method() is Method.SIMHASH else t.jaccard)

    def show_counts(self, groups: int, documents: int) -> None:
        self.counts.setText(f"<b>{groups}</b> groups · <b>{documents}</b> documents in them")
