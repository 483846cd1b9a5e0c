"""Preferences: language, appearance, which file each group keeps, how pairs are compared, and how
similar documents must be. The dialog edits a copy; the window applies what was accepted."""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..core import i18n
from ..core.models import HAMMING_MAX, JACCARD_MIN, Method, Thresholds
from ..core.review.rules import KeeperRule
from .groups_page import fill_keeper_rules
from .thresholds import method_label
from .translation import system_language


@dataclass(frozen=True)
class Preferences:
    """What the Preferences dialog edits (a part of the remembered ``AppState``)."""

    language: str  # "" follows the system
    theme: str  # "system", "light" or "dark"
    keeper_rule: KeeperRule
    ignore_layout: bool
    thresholds: Thresholds


class PreferencesDialog(QDialog):
    """Edit ``Preferences``; ``preferences()`` gives what the person chose."""

    def __init__(self, current: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Preferences"))
        self._current = current

        self.language = QComboBox(self)
        self.language.addItem(
            self.tr("As the system ({language})").format(language=i18n.LANGUAGES[system_language()]), ""
        )
        for code, name in i18n.LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(current.language)))
        self.language.setToolTip(self.tr("The language of menus, messages, the user guide and HTML reports"))
        self.language_note = QLabel(self.tr("A new language is used the next time neardup starts."), self)
        self.language_note.setWordWrap(True)
        self.language_note.setEnabled(False)

        self.theme = QComboBox(self)
        for code, label in (
            ("system", self.tr("As the system (light or dark)")),
            ("light", self.tr("Light")),
            ("dark", self.tr("Dark")),
        ):
            self.theme.addItem(label, code)
        self.theme.setCurrentIndex(max(0, self.theme.findData(current.theme)))
        self.theme.setToolTip(self.tr("Light or dark colours; “As the system” changes with the desktop"))

        self.keeper = QComboBox(self)
        fill_keeper_rules(self.keeper)
        self.keeper.setCurrentIndex(max(0, self.keeper.findData(current.keeper_rule)))
        self.keeper.setToolTip(self.tr("Which file of each group is kept when you mark all but the keepers"))

        self.ignore_layout = QCheckBox(self.tr("Ignore spacing and line breaks (and running page headers)"), self)
        self.ignore_layout.setChecked(current.ignore_layout)
        self.ignore_layout.setToolTip(
            self.tr(
                "When two documents are compared side by side, text that only moved to another line or gained "
                "spaces is not shown as a difference"
            )
        )

        self.method = QComboBox(self)
        for method in (Method.MINHASH, Method.SIMHASH, Method.BOTH):
            self.method.addItem(method_label(method), method)
        self.method.setCurrentIndex(max(0, self.method.findData(current.thresholds.method)))
        self.method.setToolTip(
            self.tr(
                "How documents are compared: by the phrases they share (recommended) or "
                "by a fingerprint of their words (faster on huge collections)"
            )
        )
        self.similarity = QSpinBox(self)
        self.similarity.setRange(round(JACCARD_MIN * 100), 100)
        self.similarity.setSuffix(self.tr(" %", "a percentage's sign after its number"))
        self.similarity.setValue(round(current.thresholds.jaccard * 100))
        self.similarity.setToolTip(
            self.tr("Documents sharing at least this share of their phrases are grouped (Jaccard similarity × 100)")
        )
        self.bits = QSpinBox(self)
        self.bits.setRange(0, HAMMING_MAX)
        self.bits.setValue(current.thresholds.hamming)
        self.bits.setToolTip(
            self.tr(
                "Fingerprints may differ in at most this many of their 64 bits (Hamming "
                "distance); fewer is stricter. Documents sharing less than a fifth of their "
                "phrases are never grouped by it, however close their fingerprints."
            )
        )
        self.boilerplate = QCheckBox(
            self.tr("Leave out common text (headers, footers, notices many documents share)"), self
        )
        self.boilerplate.setChecked(current.thresholds.ignore_boilerplate)
        self.boilerplate.setToolTip(
            self.tr(
                "Passages that open or close many of the scanned documents, whose "
                "other text is unrelated, do not count when documents are compared; "
                "documents of one family (versions of a form, licence variants) keep "
                "the text they share"
            )
        )
        self.method.currentIndexChanged.connect(self._enable)

        look = QGroupBox(self.tr("Language and appearance"), self)
        look_form = QFormLayout(look)
        look_form.addRow(self.tr("Language:"), self.language)
        look_form.addRow("", self.language_note)
        look_form.addRow(self.tr("Appearance:"), self.theme)
        review = QGroupBox(self.tr("Reviewing"), self)
        review_form = QFormLayout(review)
        review_form.addRow(self.tr("In each group, keep:"), self.keeper)
        review_form.addRow(self.ignore_layout)
        finding = QGroupBox(self.tr("Finding duplicates"), self)
        finding_form = QFormLayout(finding)
        finding_form.addRow(self.tr("Compare by:"), self.method)
        finding_form.addRow(self.tr("How similar must documents be?"), self.similarity)
        finding_form.addRow(self.tr("Fingerprint bits that may differ:"), self.bits)
        finding_form.addRow(self.boilerplate)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (look, review, finding, buttons):
            layout.addWidget(widget)
        self._enable()

    def _enable(self) -> None:
        method = Method(self.method.currentData())
        self.similarity.setEnabled(method is not Method.SIMHASH)
        self.bits.setEnabled(method is not Method.MINHASH)

    def preferences(self) -> Preferences:
        """What the dialog shows now."""
        thresholds = Thresholds(
            Method(self.method.currentData()),
            self.bits.value(),
            self.similarity.value() / 100,
            self.boilerplate.isChecked(),
        )
        return replace(
            self._current,
            language=str(self.language.currentData()),
            theme=str(self.theme.currentData()),
            keeper_rule=self.keeper.currentData(),
            ignore_layout=self.ignore_layout.isChecked(),
            thresholds=thresholds,
        )
