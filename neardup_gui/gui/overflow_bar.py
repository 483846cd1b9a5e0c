"""A row of controls that fits any width: those that do not fit, from the end, are hidden and offered in the
» menu beside it (a button as its action, a choice as a submenu). Qt's own toolbar offers nothing there
outside a main window's toolbar area."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QWidget,
)


class OverflowBar(QWidget):
    """Widgets in a row; the first one always shows (a filter, say), the others while they fit."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(name)
        self._items: list[QWidget] = []
        self._unwanted: set[QWidget] = set()  # hidden whatever the room (set_wanted)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 2, 0, 2)
        self._layout.setSpacing(4)
        self.more = QToolButton(self)
        self.more.setText("»")
        self.more.setToolTip(self.tr("More: what does not fit here"))
        self.more.setAccessibleName(self.tr("More"))
        self.more.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more.setMenu(QMenu(self.more))
        self.more.menu().aboutToShow.connect(self._fill_menu)
        self._layout.addStretch(1)  # the room left over: after the widgets, not inside them
        self._layout.addWidget(self.more)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def addWidget(self, widget: QWidget) -> None:  # noqa: N802 - as Qt's bars name it
        self._items.append(widget)
        self._layout.insertWidget(len(self._items) - 1, widget)

    def addSeparator(self) -> None:  # noqa: N802 - as Qt's bars name it
        line = QFrame(self)
        line.setFrameShape(QFrame.Shape.VLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        self.addWidget(line)

    def set_wanted(self, widget: QWidget, wanted: bool) -> None:
        """Show ``widget`` when it fits (the default), or never, nor in the » menu: what does not apply now
        (setVisible would last only until the bar is next fitted)."""
        (self._unwanted.discard if wanted else self._unwanted.add)(widget)
        self.fit()

    def _wanted(self) -> list[QWidget]:
        return [w for w in self._items if w not in self._unwanted]

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        items = self._wanted()
        width = sum(self._width(w) for w in items) + self._layout.spacing() * len(items)
        return QSize(width, max([w.sizeHint().height() for w in items] + [self.more.sizeHint().height()]) + 4)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        first = self._width(self._items[0]) if self._items else 0
        return QSize(first + self.more.sizeHint().width() + self._layout.spacing(), self.sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.fit()

    def fit(self) -> None:
        """Show the widgets from the first while they fit, and » when some do not."""
        spacing = self._layout.spacing()
        items = self._wanted()
        for widget in self._unwanted:
            widget.setVisible(False)
        widths = [self._width(w) + spacing for w in items]
        room = self.width()
        shown = len(widths) if sum(widths) <= room else 0
        if not shown:
            room -= self.more.sizeHint().width()
            used = 0
            for width in widths:
                if used + width > room and shown:
                    break
                used += width
                shown += 1
        for n, widget in enumerate(items):
            widget.setVisible(n < shown)
        # a choice's label goes with its choice, a separator with what follows it: never "Keep:" alone at the end
        for widget in reversed(items[1:shown]):
            label_alone = isinstance(widget, QLabel) and widget.buddy() is not None and not widget.buddy().isVisible()
            if not (label_alone or type(widget) is QFrame):
                break
            widget.setVisible(False)
        self.more.setVisible(shown < len(items))

    def hidden(self) -> list[QWidget]:
        """The widgets the » menu offers (those wanted that do not fit)."""
        return [w for w in self._wanted() if not w.isVisible()]

    def _width(self, widget: QWidget) -> int:
        policy = widget.sizePolicy().horizontalPolicy()
        stretches = policy in (QSizePolicy.Policy.Expanding, QSizePolicy.Policy.MinimumExpanding)
        hint = widget.minimumSizeHint() if stretches else widget.sizeHint()  # what it can do with
        return max(hint.width(), widget.minimumWidth())

    def _fill_menu(self) -> None:
        menu = self.more.menu()
        menu.clear()
        label = ""
        for widget in self.hidden():
            if isinstance(widget, QAbstractButton):
                action = QAction(widget.text(), menu)
                action.setEnabled(widget.isEnabled())
                action.setToolTip(widget.toolTip())
                action.triggered.connect(widget.click)
                menu.addAction(action)
            elif isinstance(widget, QComboBox):
                self._choices(menu.addMenu(label.rstrip(":：") or widget.accessibleName()), widget)
            elif isinstance(widget, QLabel):
                label = widget.text().replace("&", "")  # a choice's name, for the submenu that follows
            elif isinstance(widget, QFrame):
                menu.addSeparator()
        menu.setToolTipsVisible(True)

    @staticmethod
    def _choices(menu: QMenu, box: QComboBox) -> None:
        menu.setEnabled(box.isEnabled())
        for index in range(box.count()):
            action = menu.addAction(box.itemText(index))
            action.setCheckable(True)
            action.setChecked(index == box.currentIndex())
            action.triggered.connect(lambda _checked=False, i=index: box.setCurrentIndex(i))
