"""How similar documents must be to be grouped, in plain words with each method's own number beside, and a
histogram of pair similarities with the line drawn on it."""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QWidget,
)

from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.models import (
    CONTAINMENT_MIN,
    HAMMING_MAX,
    JACCARD_MIN,
    PASSAGE_COMMON_MAX,
    PASSAGE_MAX_WORDS,
    PASSAGE_MIN_WORDS,
    Find,
    Method,
    PassageSearch,
    Search,
    Thresholds,
)
from ..core.review.rules import Histogram
from ..core.review.words import percent

METHOD_LABELS = {
    Method.MINHASH: QT_TRANSLATE_NOOP("ThresholdsPanel", "Shared phrases (MinHash)"),
    Method.SIMHASH: QT_TRANSLATE_NOOP("ThresholdsPanel", "Word fingerprint (SimHash)"),
    Method.BOTH: QT_TRANSLATE_NOOP("ThresholdsPanel", "Either of the two"),
}
"""The method menu's items, in English: translated (context "ThresholdsPanel") where shown."""


FIND_LABELS = {
    Find.DUPLICATES: QT_TRANSLATE_NOOP("ThresholdsPanel", "Duplicates"),
    Find.EXCERPTS: QT_TRANSLATE_NOOP("ThresholdsPanel", "Excerpts"),
    Find.PASSAGES: QT_TRANSLATE_NOOP("ThresholdsPanel", "Shared passages"),
}
"""The Look for menu's items, in English."""


def method_label(method: Method) -> str:
    """A grouping method as its menus name it, in the person's language."""
    return QCoreApplication.translate("ThresholdsPanel", METHOD_LABELS[method])


class HistogramWidget(QWidget):
    """Bars of pair counts per similarity bin (log scale, with its count axis) and the threshold as a line."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.histogram: Histogram | None = None
        self.threshold = 0.0
        self.setMinimumHeight(72)
        self.setMinimumWidth(160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setToolTip(
            self.tr(
                "How many pairs of documents lie at each similarity (a sample of at most 3,000 "
                "documents). The pairs on the highlighted side of the line are grouped; a valley "
                "between two hills is a natural place for the line."
            )
        )
        self.setAccessibleName(self.tr("Pairs of documents by similarity"))

    def set_data(self, histogram: Histogram | None, threshold: float) -> None:
        self.histogram, self.threshold = histogram, threshold
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        metrics = painter.fontMetrics()
        line = metrics.height()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text_colour = palette.color(QPalette.ColorRole.PlaceholderText)
        h = self.histogram
        if h is None or not h.counts:
            painter.setPen(text_colour)
            painter.drawText(
                self.rect(),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                self.tr("How similar the pairs of documents are appears here after a scan"),
            )
            return
        peak_count = max(h.counts)
        top_label = f"{peak_count:,}"
        axis = metrics.horizontalAdvance(top_label) + 6
        area = QRectF(self.rect()).adjusted(axis, line // 2 + 2, -4, -(line + 2))
        peak = math.log1p(peak_count) or 1.0
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
        # the count axis (logarithmic): its top, a middle mark and zero
        painter.setPen(text_colour)
        painter.drawLine(int(area.left()) - 1, int(area.top()), int(area.left()) - 1, int(area.bottom()))
        middle = round(math.expm1(peak / 2))
        for value in sorted({0, middle, peak_count}):
            y = area.bottom() - math.log1p(value) / peak * area.height()
            label = f"{value:,}"
            painter.drawText(
                QRectF(0, y - line / 2, axis - 4, line),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                label,
            )
        # the similarity axis
        label_y = int(self.height() - 3)
        if simhash:
            left, right = (self.tr("{bits} bits").format(bits=f"{edge:g}") for edge in (lo, hi - 1))
        else:
            left, right = percent(lo), percent(1.0)
        painter.drawText(int(area.left()), label_y, left)
        painter.drawText(int(area.right() - metrics.horizontalAdvance(right)), label_y, right)
        # the threshold, and how many pairs it groups
        x = area.left() + (self.threshold + (1 if simhash else 0) - lo) / span * area.width()
        pen = QPen(palette.color(QPalette.ColorRole.Text))
        pen.setWidth(2)
        painter.setPen(pen)
        painter.drawLine(int(x), int(area.top()), int(x), int(area.bottom()))


class ThresholdsPanel(QWidget):
    """What to look for (duplicates, excerpts, shared passages) and how similar documents must be, in plain
    words with the method's own number beside; emits ``changed`` with new Thresholds, and ``search_changed``
    with a new Search, a moment after the person stops moving a control. Only the controls of what is
    looked for, and of the chosen method, are shown."""

    changed = Signal(object)
    search_changed = Signal(object)

    def __init__(self, thresholds: Thresholds, search: Search | None = None, parent=None) -> None:
        super().__init__(parent)
        self.look_for = QComboBox(self)
        for find, label in FIND_LABELS.items():
            self.look_for.addItem(QCoreApplication.translate("ThresholdsPanel", label), find)
        self.look_for.setToolTip(
            self.tr(
                "Duplicates: documents that are the same or nearly the same, in groups. Excerpts: a document "
                "whose text is inside a longer one (a chapter copied out of a report). Shared passages: two "
                "documents that hold the same passage word for word (a quotation, a copied page). Excerpts and "
                "passages are listed in the Pairs tab."
            )
        )
        self.look_for.setAccessibleName(self.tr("Look for"))
        self.look_for.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.look_for.setMinimumContentsLength(8)  # beside Compare by, on a 1024-pixel screen in every language
        self.method = QComboBox(self)
        for method in METHOD_LABELS:
            self.method.addItem(method_label(method), method)
        self.method.setToolTip(
            self.tr(
                "Shared phrases: the share of three-word (for Chinese, three-character) phrases two documents have in "
                "common, checked exactly; recommended. Word fingerprint: compares 64-bit fingerprints of the words "
                "(for Chinese, of three-character runs), quick on very large collections; documents sharing less than "
                "a fifth of their phrases are never grouped by it. Either: a pair found by one of the two is grouped."
            )
        )
        self.method.setAccessibleName(self.tr("Compare by"))
        # as wide as a short label, not the longest: the panel must fit a 1024-pixel screen in every language
        self.method.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.method.setMinimumContentsLength(10)

        self.similarity_label = QLabel(self.tr("How similar must documents be?"), self)
        self.similarity_label.setWordWrap(True)
        self.similarity_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.similarity_slider.setRange(round(JACCARD_MIN * 100), 100)
        self.similarity_spin = QSpinBox(self)
        self.similarity_spin.setRange(round(JACCARD_MIN * 100), 100)
        self.similarity_spin.setSuffix(self.tr(" %", "a percentage's sign after its number"))
        self.jaccard_value = QLabel(self)
        similarity_tip = self.tr(
            "Documents are grouped when at least this share of their phrases is the same: 100 % only for the "
            "same text, 80 % for a copy with some sentences changed, 50 % for a loose relative. For experts: "
            "Jaccard similarity of the documents' three-word (or three-character) shingles."
        )
        for w in (self.similarity_label, self.similarity_slider, self.similarity_spin, self.jaccard_value):
            w.setToolTip(similarity_tip)
        self.similarity_slider.setAccessibleName(self.tr("How similar must documents be?"))
        self.similarity_spin.setAccessibleName(self.tr("Similarity in percent"))

        self.bits_label = QLabel(self.tr("How much may fingerprints differ?"), self)
        self.bits_label.setWordWrap(True)
        self.hamming_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.hamming_slider.setRange(0, HAMMING_MAX)
        self.hamming_spin = QSpinBox(self)
        self.hamming_spin.setRange(0, HAMMING_MAX)
        self.hamming_value = QLabel(self)
        hamming_tip = self.tr(
            "Documents are grouped when their 64-bit word fingerprints differ in at most this many bits: 0 for "
            "the same words, 8 (the default) for a copy with some sentences changed; fewer is stricter. For experts: "
            "SimHash Hamming distance."
        )
        for w in (self.bits_label, self.hamming_slider, self.hamming_spin, self.hamming_value):
            w.setToolTip(hamming_tip)
        self.hamming_slider.setAccessibleName(self.tr("How much may fingerprints differ?"))
        self.hamming_spin.setAccessibleName(self.tr("Bits that may differ"))

        self.inside_label = QLabel(self.tr("How much of the smaller document must be inside?"), self)
        self.inside_label.setWordWrap(True)
        self.inside_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.inside_slider.setRange(round(CONTAINMENT_MIN * 100), 100)
        self.inside_spin = QSpinBox(self)
        self.inside_spin.setRange(round(CONTAINMENT_MIN * 100), 100)
        self.inside_spin.setSuffix(self.tr(" %", "a percentage's sign after its number"))
        self.inside_value = QLabel(self)
        inside_tip = self.tr(
            "A document is listed as an excerpt of another when at least this share of its phrases is in the "
            "other, however long the other is: 100 % for a passage copied whole, 80 % for one with some words "
            "changed. For experts: containment of the smaller document's shingles in the larger's."
        )
        for w in (self.inside_label, self.inside_slider, self.inside_spin, self.inside_value):
            w.setToolTip(inside_tip)
        self.inside_slider.setAccessibleName(self.tr("How much of the smaller document must be inside?"))
        self.inside_spin.setAccessibleName(self.tr("Share inside in percent"))

        self.words_label = QLabel(self.tr("How long must a shared passage be?"), self)
        self.words_label.setWordWrap(True)
        self.words_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.words_slider.setRange(PASSAGE_MIN_WORDS, 500)  # the spin box goes further
        self.words_spin = QSpinBox(self)
        self.words_spin.setRange(PASSAGE_MIN_WORDS, PASSAGE_MAX_WORDS)
        self.words_value = QLabel(self.tr("words in a row, word for word"), self)
        self.words_value.setWordWrap(True)
        words_tip = self.tr(
            "Two documents are listed when they hold the same passage of at least this many words (for Chinese, "
            "characters) in a row, word for word: 50 is about three sentences. Punctuation and spacing do not count."
        )
        for w in (self.words_label, self.words_slider, self.words_spin, self.words_value):
            w.setToolTip(words_tip)
        self.words_spin.setAccessibleName(self.tr("Words in a row"))
        self.common_label = QLabel(self.tr("Leave out wording held by more than"), self)
        self.common_label.setWordWrap(True)
        self.common_spin = QSpinBox(self)
        self.common_spin.setRange(2, PASSAGE_COMMON_MAX)
        self.common_value = QLabel(self.tr("documents"), self)
        common_tip = self.tr(
            "A passage that many documents hold is common wording (a standard clause, a well-known quotation), "
            "not a copy worth listing: a passage every part of which more than this many documents hold is left out."
        )
        for w in (self.common_label, self.common_spin, self.common_value):
            w.setToolTip(common_tip)
        self.common_spin.setAccessibleName(self.tr("Documents that make wording common"))

        self.boilerplate = QCheckBox(self.tr("Leave out common text"), self)
        self.boilerplate.setToolTip(
            self.tr(
                "Passages that open or close 10 % or more of the scanned documents (letterheads, page footers, licence "
                "notices, e-mail disclaimers) do not count when documents are compared, so that they do not make "
                "unrelated documents look alike; documents of one family (versions of a form, licence variants) keep "
                "the text they share."
            )
        )
        self.histogram = HistogramWidget(self)
        self.caption = QLabel("", self)  # the histogram's line in words: how many pairs it groups
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption.setWordWrap(True)
        self.caption.setToolTip(
            self.tr(
                "Every pair of documents that are duplicates at this setting: the pairs the "
                "Pairs tab lists and the reports give"
            )
        )
        self._pairs: tuple[Thresholds, int] | None = None  # the pairs of duplicates, at the thresholds shown
        self.counts = QLabel("", self)
        self.counts.setWordWrap(True)
        self._grouped = ""  # the counts of the groups of duplicates
        self._found: tuple[Search, str] | None = None  # the counts of the last search found (show_found)

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        find_label = QLabel(self.tr("Look for"), self)
        find_label.setBuddy(self.look_for)
        self.compare_label = QLabel(self.tr("Compare by"), self)
        self.compare_label.setBuddy(self.method)
        first = QHBoxLayout()
        first.addWidget(self.look_for)
        first.addSpacing(8)
        first.addWidget(self.compare_label)
        first.addWidget(self.method, 1)
        grid.addWidget(find_label, 0, 0)
        grid.addLayout(first, 0, 1, 1, 2)
        grid.addWidget(self.counts, 0, 3)
        for row, widgets in (
            (1, (self.similarity_label, self.similarity_slider, self.similarity_spin, self.jaccard_value)),
            (2, (self.bits_label, self.hamming_slider, self.hamming_spin, self.hamming_value)),
            (1, (self.inside_label, self.inside_slider, self.inside_spin, self.inside_value)),
            (1, (self.words_label, self.words_slider, self.words_spin, self.words_value)),
            (2, (self.common_label, None, self.common_spin, self.common_value)),
        ):
            for column, widget in enumerate(widgets):
                if widget is not None:
                    grid.addWidget(widget, row, column)
        options = QHBoxLayout()
        options.addWidget(self.boilerplate)
        options.addStretch(1)
        grid.addLayout(options, 3, 0, 1, 4)
        grid.addWidget(self.histogram, 0, 4, 3, 1)
        grid.addWidget(self.caption, 3, 4)
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(3, 1)  # the counts wrap only when the window is narrow
        grid.setColumnStretch(4, 2)
        for value in (self.jaccard_value, self.hamming_value, self.inside_value):
            value.setStyleSheet("color: palette(placeholder-text);")  # quiet: the expert's number beside the plain one

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(120)
        self._debounce.timeout.connect(lambda: self.changed.emit(self.thresholds()))
        self.hamming_slider.valueChanged.connect(self.hamming_spin.setValue)
        self.hamming_spin.valueChanged.connect(self.hamming_slider.setValue)
        self.similarity_slider.valueChanged.connect(self.similarity_spin.setValue)
        self.similarity_spin.valueChanged.connect(self.similarity_slider.setValue)
        for signal in (
            self.hamming_spin.valueChanged,
            self.similarity_spin.valueChanged,
            self.method.currentIndexChanged,
            self.boilerplate.toggled,
        ):
            signal.connect(self._schedule)
        self._search_debounce = QTimer(self)
        self._search_debounce.setSingleShot(True)
        self._search_debounce.setInterval(300)  # a search takes longer than a grouping: wait for the last step
        self._search_debounce.timeout.connect(lambda: self.search_changed.emit(self.search()))
        self.inside_slider.valueChanged.connect(self.inside_spin.setValue)
        self.inside_spin.valueChanged.connect(self.inside_slider.setValue)
        self.words_slider.valueChanged.connect(self.words_spin.setValue)
        self.words_spin.valueChanged.connect(self.words_slider.setValue)
        for signal in (self.inside_spin.valueChanged, self.words_spin.valueChanged, self.common_spin.valueChanged):
            signal.connect(lambda _value: self._search_debounce.start())
        self.inside_spin.valueChanged.connect(lambda _value: self._show_method())  # its expert number
        for signal in (self.words_spin.valueChanged, self.common_spin.valueChanged):
            signal.connect(lambda _value: self._show_counts())  # the last counts were another setting's
        self.look_for.currentIndexChanged.connect(self._find_changed)
        self.set_thresholds(thresholds)
        self.set_search(search if search is not None else Search())

    def set_search(self, search: Search) -> None:
        controls = (
            self.look_for,
            self.inside_spin,
            self.inside_slider,
            self.words_spin,
            self.words_slider,
            self.common_spin,
        )
        for w in controls:
            w.blockSignals(True)
        self.look_for.setCurrentIndex(self.look_for.findData(search.find))
        self.inside_spin.setValue(round(search.containment * 100))
        self.inside_slider.setValue(round(search.containment * 100))
        self.words_spin.setValue(search.passages.words)
        self.words_slider.setValue(search.passages.words)
        self.common_spin.setValue(search.passages.common or PASSAGE_COMMON_MAX)
        for w in controls:
            w.blockSignals(False)
        self._show_method()

    def search(self) -> Search:
        return Search(
            Find(self.look_for.currentData()),
            self.inside_spin.value() / 100,
            PassageSearch(self.words_spin.value(), self.common_spin.value()),
        )

    def _find_changed(self) -> None:
        self._show_method()
        self._search_debounce.stop()
        self.search_changed.emit(self.search())  # at once: a menu has no steps to wait for

    def set_thresholds(self, thresholds: Thresholds) -> None:
        controls = (
            self.method,
            self.hamming_spin,
            self.hamming_slider,
            self.similarity_spin,
            self.similarity_slider,
            self.boilerplate,
        )
        for w in controls:
            w.blockSignals(True)
        self.method.setCurrentIndex(self.method.findData(thresholds.method))
        self.hamming_spin.setValue(thresholds.hamming)
        self.hamming_slider.setValue(thresholds.hamming)
        self.similarity_spin.setValue(round(thresholds.jaccard * 100))
        self.similarity_slider.setValue(round(thresholds.jaccard * 100))
        self.boilerplate.setChecked(thresholds.ignore_boilerplate)
        for w in controls:
            w.blockSignals(False)
        self._show_method()

    def thresholds(self) -> Thresholds:
        return Thresholds(
            Method(self.method.currentData()),
            self.hamming_spin.value(),
            self.similarity_spin.value() / 100,
            self.boilerplate.isChecked(),
        )

    def _schedule(self) -> None:
        self._show_method()
        self._debounce.start()

    def _show_method(self) -> None:
        """Only the controls of what is looked for and of the chosen method, each with its expert number."""
        self._show_counts()
        t = self.thresholds()
        find = Find(self.look_for.currentData())
        self.inside_value.setText(
            self.tr("containment ≥ {value}").format(value=f"{self.inside_spin.value() / 100:.2f}")
        )
        self.jaccard_value.setText(self.tr("Jaccard ≥ {value}").format(value=f"{t.jaccard:.2f}"))
        self.hamming_value.setText(self.tr("Hamming ≤ {value}").format(value=t.hamming))
        self.hamming_spin.setSuffix(self.tr(" bit(s)", "", t.hamming))
        simhash_controls: tuple[QWidget, ...] = (
            self.bits_label,
            self.hamming_slider,
            self.hamming_spin,
            self.hamming_value,
        )
        # common text counts for both methods: SimHash's pairs are verified by what is compared
        minhash_controls: tuple[QWidget, ...] = (
            self.similarity_label,
            self.similarity_slider,
            self.similarity_spin,
            self.jaccard_value,
        )
        duplicates = find is Find.DUPLICATES
        for w in simhash_controls:
            w.setVisible(duplicates and t.method in (Method.SIMHASH, Method.BOTH))
        for w in minhash_controls:
            w.setVisible(duplicates and t.method in (Method.MINHASH, Method.BOTH))
        for w in (self.compare_label, self.method, self.histogram, self.caption):
            w.setVisible(duplicates)
        for w in (self.inside_label, self.inside_slider, self.inside_spin, self.inside_value):
            w.setVisible(find is Find.EXCERPTS)
        for w in (
            self.words_label,
            self.words_slider,
            self.words_spin,
            self.words_value,
            self.common_label,
            self.common_spin,
            self.common_value,
        ):
            w.setVisible(find is Find.PASSAGES)
        self._threshold_moved()

    def _threshold_moved(self) -> None:
        if self.histogram.histogram is not None:
            t = self.thresholds()
            simhash = self.histogram.histogram.method is Method.SIMHASH
            self.histogram.set_data(self.histogram.histogram, float(t.hamming) if simhash else t.jaccard)
        self.caption.setText(self._caption())

    def histogram_method(self) -> Method:
        method = Method(self.method.currentData())
        return Method.SIMHASH if method is Method.SIMHASH else Method.MINHASH

    def histogram_needed(self, ignores_boilerplate: bool) -> Method | None:
        """The method whose histogram must be measured, or None when the one shown is still right (it is
        shown again at the thresholds now)."""
        method = self.histogram_method()
        current = self.histogram.histogram
        if (
            current is not None
            and current.method is method
            and (method is Method.SIMHASH or current.ignore_boilerplate == ignores_boilerplate)
        ):
            self.show_histogram(current)
            return None
        return method

    def show_histogram(self, histogram: Histogram | None) -> None:
        t = self.thresholds()
        self.histogram.set_data(histogram, float(t.hamming) if self.histogram_method() is Method.SIMHASH else t.jaccard)
        self.caption.setText(self._caption())

    def show_counts(self, groups: int, documents: int, pairs: int, thresholds: Thresholds) -> None:
        """The groups and the documents in them (each once, also when it is listed under two groups), and the
        pairs of duplicates (those the Pairs tab lists, and the reports) at ``thresholds``."""
        grouped = self.tr("<b>%Ln</b> group(s)", "", groups)
        self._grouped = grouped + " · " + self.tr("<b>%Ln</b> document(s) in them", "", documents)
        self._pairs = (thresholds, pairs)
        self.caption.setText(self._caption())
        self._show_counts()

    def show_found(self, search: Search, found: int, holders: int = 0) -> None:
        """What ``search`` found: so many excerpts, in so many documents that hold them (``holders``), or so
        many pairs that share passages; shown while it is what is looked for."""
        if search.find is Find.EXCERPTS:
            held = self.tr("in <b>%Ln</b> document(s)", "", holders)
            text = self.tr("<b>%Ln</b> excerpt(s)", "", found) + " · " + held
        else:
            text = self.tr("<b>%Ln</b> pair(s) that share passages", "", found)
        self._found = (search.asked, text)
        self._show_counts()

    def _show_counts(self) -> None:
        """The counts of what is looked for: the groups of duplicates, or what the search found at this setting
        (nothing while it is looked for)."""
        search = self.search().asked
        if search.find is Find.DUPLICATES:
            self.counts.setText(self._grouped)
            self.counts.setToolTip(self.tr("Groups and documents at these settings"))
        else:
            self.counts.setText(self._found[1] if self._found is not None and self._found[0] == search else "")
            self.counts.setToolTip(self.tr("What is found at this setting"))

    def _caption(self) -> str:
        """The line's count in words: the pairs of duplicates at the setting, counted as the Pairs tab and the
        reports count them, once the groups at this setting are made (while they are, nothing)."""
        if self._pairs is None:
            return ""
        shown, pairs = self._pairs
        t = self.thresholds()
        if (shown.method, shown.jaccard, shown.hamming) != (t.method, t.jaccard, t.hamming):
            return ""
        if t.method is Method.SIMHASH:
            return self.tr("%Ln pair(s) of duplicates within {bits} bits", "", pairs).format(bits=t.hamming)
        if t.method is Method.MINHASH:
            said = self.tr("%Ln pair(s) of duplicates at {share} % or more", "", pairs)
            return said.format(share=round(t.jaccard * 100)).replace(" %", "\u00a0%")  # never "80 / % or more"
        return self.tr("%Ln pair(s) of duplicates at these settings", "", pairs)
