"""Light and dark are both legible, measured from rendered pixels (WCAG AA): a check box's edge 3:1
against what surrounds it, quiet text (hints, the experts' numbers, placeholders) 4.5:1 against its
background."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QCheckBox, QListWidget, QListWidgetItem, QStyle, QStyleOptionButton

from neardup_gui.core.models import Thresholds
from neardup_gui.gui.folders import FoldersPanel
from neardup_gui.gui.settings import AppState, FileDialogs
from neardup_gui.gui.theme import apply_colour_scheme
from neardup_gui.gui.thresholds import ThresholdsPanel


def luminance(colour: QColor) -> float:
    """WCAG 2's relative luminance."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def pixels(image: QImage, rect: QRect) -> list[QColor]:
    rect = rect.intersected(image.rect())
    return [
        image.pixelColor(x, y)
        for y in range(rect.top(), rect.bottom() + 1)
        for x in range(rect.left(), rect.right() + 1)
    ]


def strongest(image: QImage, rect: QRect, against: QColor) -> float:
    """The contrast of the pixel in ``rect`` that stands out most from ``against``."""
    return max(contrast(p, against) for p in pixels(image, rect))


def text_contrast(widget) -> float:
    """The contrast of a widget's text with its background: its most common colour."""
    image = widget.grab().toImage()
    background = Counter(p.rgb() for p in pixels(image, image.rect())).most_common(1)[0][0]
    return strongest(image, image.rect(), QColor.fromRgb(background))


@pytest.fixture(params=["light", "dark"])
def theme(qapp, request):
    apply_colour_scheme(request.param)
    yield request.param
    apply_colour_scheme("system")


def test_an_unticked_box_stands_out_from_the_window_and_from_its_own_inside(qtbot, theme):
    box = QCheckBox("Leave out common text")
    qtbot.addWidget(box)
    box.resize(box.sizeHint())
    box.show()
    option = QStyleOptionButton()
    option.initFrom(box)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    window = box.palette().color(box.backgroundRole())
    inside = image.pixelColor(indicator.center())
    edge = QRect(indicator.left(), indicator.top(), indicator.width(), 1)  # its top edge
    assert strongest(image, edge, window) >= 3.0, theme
    assert strongest(image, edge, inside) >= 3.0, theme


def test_an_unticked_box_in_a_list_stands_out_from_the_list(qtbot, theme):
    """The folders list's and the groups tree's boxes: drawn on the view's base colour."""
    view = QListWidget()
    qtbot.addWidget(view)
    item = QListWidgetItem("/home/someone/uploads")
    item.setFlags(item.flags() | item.flags().ItemIsUserCheckable)
    item.setCheckState(item.checkState().Unchecked)
    view.addItem(item)
    view.resize(300, 80)
    view.show()
    QApplication.processEvents()
    row = view.visualItemRect(item)
    image = view.viewport().grab().toImage()
    base = view.palette().color(view.viewport().backgroundRole())
    assert strongest(image, QRect(row.left(), row.top(), row.height(), row.height()), base) >= 3.0, theme


def test_hints_and_the_experts_numbers_are_read_easily(qtbot, theme):
    folders = FoldersPanel(FileDialogs(AppState()))
    thresholds = ThresholdsPanel(Thresholds())
    for widget in (folders, thresholds):
        qtbot.addWidget(widget)
        widget.show()
    QApplication.processEvents()
    hint = next(label for label in folders.findChildren(type(thresholds.jaccard_value)) if "☑" in label.text())
    for label in (hint, thresholds.jaccard_value):
        assert text_contrast(label) >= 4.5, (theme, label.text())
