"""A bar of controls at any width: what does not fit is offered in its » menu, and acts from there."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton, QWidget

from neardup_gui.gui.app import create_app
from neardup_gui.gui.overflow_bar import OverflowBar


def _bar(qtbot):
    create_app([], language="en")
    holder = QWidget()
    qtbot.addWidget(holder)
    bar = OverflowBar("Marks", holder)
    clicked: list[str] = []
    edit = QLineEdit(holder)
    bar.addWidget(edit)
    buttons = []
    for text in ("Mark all", "Unmark all", "Copy paths"):
        button = QPushButton(text, holder)
        button.clicked.connect(lambda _checked=False, t=text: clicked.append(t))
        bar.addWidget(button)
        buttons.append(button)
    bar.addSeparator()
    label, choice = QLabel("Keep:", holder), QComboBox(holder)
    choice.addItems(["The original", "The newest", "The largest"])
    label.setBuddy(choice)
    bar.addWidget(label)
    bar.addWidget(choice)
    holder.show()
    return holder, bar, edit, buttons, choice, clicked


def test_what_fits_is_shown_and_the_rest_is_offered_in_the_menu_where_it_acts(qtbot):
    holder, bar, edit, buttons, choice, clicked = _bar(qtbot)
    bar.resize(bar.sizeHint().width() + 20, bar.sizeHint().height())
    assert not bar.more.isVisible() and all(b.isVisible() for b in buttons) and choice.isVisible()

    bar.resize(edit.minimumSizeHint().width() + buttons[0].sizeHint().width() + 60, bar.height())
    assert bar.more.isVisible() and edit.isVisible() and buttons[0].isVisible()
    assert not buttons[2].isVisible() and not choice.isVisible()
    menu = bar.more.menu()
    menu.aboutToShow.emit()
    entries = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert entries[:2] == ["Unmark all", "Copy paths"] and entries[-1] == "Keep"  # a choice: a submenu
    next(a for a in menu.actions() if a.text() == "Copy paths").trigger()
    assert clicked == ["Copy paths"]
    buttons[1].setEnabled(False)  # as its action is: offered, but not to be chosen
    menu.aboutToShow.emit()
    assert not next(a for a in menu.actions() if a.text() == "Unmark all").isEnabled()
    keep = next(a for a in menu.actions() if a.text() == "Keep").menu()
    assert [a.isChecked() for a in keep.actions()] == [True, False, False]
    keep.actions()[1].trigger()
    assert choice.currentText() == "The newest"


def test_a_choice_s_label_never_stays_alone_at_the_end(qtbot):
    holder, bar, edit, buttons, choice, _clicked = _bar(qtbot)
    label = next(w for w in bar._items if isinstance(w, QLabel))
    widths = sum(bar._width(w) + 4 for w in bar._items[:-1])  # everything but the choice
    bar.resize(widths + bar.more.sizeHint().width() + 2, bar.height())
    assert not choice.isVisible() and not label.isVisible() and bar.more.isVisible()


def test_a_control_that_does_not_apply_stays_hidden_whatever_the_width_and_is_not_in_the_menu(qtbot):
    """The Pairs tab hides Keep left while excerpts are listed: a resize, or the tab shown again, does not bring
    it back, and the » menu does not offer it; wanted again, it shows where it fits."""
    holder, bar, edit, buttons, choice, _clicked = _bar(qtbot)
    bar.set_wanted(buttons[1], False)
    bar.resize(bar.sizeHint().width() + 200, bar.sizeHint().height())
    holder.hide()
    holder.show()
    assert not buttons[1].isVisible() and buttons[0].isVisible() and buttons[2].isVisible()
    bar.resize(edit.minimumSizeHint().width() + buttons[0].sizeHint().width() + 60, bar.height())
    menu = bar.more.menu()
    menu.aboutToShow.emit()
    assert "Unmark all" not in [a.text() for a in menu.actions()] and "Copy paths" in [a.text() for a in menu.actions()]
    bar.set_wanted(buttons[1], True)
    bar.resize(bar.sizeHint().width() + 20, bar.height())
    assert buttons[1].isVisible() and not bar.more.isVisible()
