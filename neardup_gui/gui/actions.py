"""The window's actions as data: one table gives each action its menu, text, keys, explanation and the
buttons that do the same. The menus, the buttons' tooltips and enabled states, the groups tree's context
menu and Help ▸ Keyboard Shortcuts are all made from it, so none of them can disagree with another."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QMainWindow, QMessageBox, QWidget

from ..core.i18n import QT_TRANSLATE_NOOP
from .decisions_dialog import DecisionsDialog
from .help import ShortcutList, UserGuide, show_about
from .mark_dialog import MarkRuleDialog

Keys = str | QKeySequence.StandardKey | None

CONTEXT = "Actions"
"""The translation context of every text below."""


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One thing the person can do, wherever it is offered."""

    name: str  # how the window finds it: ``window.action(name)``
    menu: str | None  # the menu it is in (a key of MENUS), or none: only its keys and buttons
    text: str  # English; translated where shown
    tip: str
    trigger: Callable[[Any], object]  # called with the window
    keys: Keys = None
    buttons: tuple[str, ...] = ()  # dotted paths from the window to buttons that do the same and follow its state
    scope: str = ""  # a widget (dotted path) its keys are limited to, and whose context menu offers it
    in_tree: bool = False  # also in the groups tree's context menu
    separated: bool = False  # a separator before it in its menu
    enabled: Callable[[WindowState], bool] = lambda _state: True  # when it can act


@dataclass(frozen=True, slots=True)
class WindowState:
    """What the actions' ``enabled`` rules look at, read from the window once per change."""

    idle: bool  # no scan runs
    ready: bool  # idle, with a grouping shown
    has_folders: bool
    has_result: bool
    has_groups: bool
    tab: str  # the tab shown: "groups", "pairs" or "problems"
    document: bool  # a document is selected on it (a member's row, a problem's)
    group: bool  # any row of a group is (on the Groups tab)
    rows_selected: bool  # rows of the groups tree are (on the Groups tab)
    pair: bool  # a pair is (on the Pairs tab)
    marked: bool
    undoable: bool


MENUS = (
    ("file", QT_TRANSLATE_NOOP("Actions", "&File")),
    ("edit", QT_TRANSLATE_NOOP("Actions", "&Edit")),
    ("mark", QT_TRANSLATE_NOOP("Actions", "&Mark")),
    ("view", QT_TRANSLATE_NOOP("Actions", "&View")),
    ("help", QT_TRANSLATE_NOOP("Actions", "&Help")),
)

_STD = QKeySequence.StandardKey

ACTIONS: tuple[ActionSpec, ...] = (
    # File
    ActionSpec(
        "add_folder",
        "file",
        QT_TRANSLATE_NOOP("Actions", "&Add Folder…"),
        QT_TRANSLATE_NOOP("Actions", "Add a folder to scan"),
        lambda w: w.folders.choose_folder(),
        _STD.Open,
    ),
    ActionSpec(
        "scan",
        "file",
        QT_TRANSLATE_NOOP("Actions", "&Scan"),
        QT_TRANSLATE_NOOP("Actions", "Scan the folders. A rescan reads only files that changed."),
        lambda w: w.start_scan(),
        _STD.Refresh,
        buttons=("scan_button", "empty.scan_button", "rescan_note.scan_button"),
        enabled=lambda s: s.idle and s.has_folders,
    ),
    ActionSpec(
        "cancel_scan",
        "file",
        QT_TRANSLATE_NOOP("Actions", "&Cancel Scan"),
        QT_TRANSLATE_NOOP("Actions", "Stop the scan; what was read is kept and a rescan continues from there"),
        lambda w: w.cancel_scan(),
        "Esc",
        buttons=("scan_status.cancel_button",),
        enabled=lambda s: not s.idle,
    ),
    ActionSpec(
        "import_spark",
        "file",
        QT_TRANSLATE_NOOP("Actions", "&Import Spark Result…"),
        QT_TRANSLATE_NOOP(
            "Actions", "Load the result of a neardup job on a Spark cluster, to review it in a new window"
        ),
        lambda w: w.import_spark(),
        separated=True,
        enabled=lambda s: s.idle,  # it runs where a scan does, one after the other
    ),
    ActionSpec(
        "export",
        "file",
        QT_TRANSLATE_NOOP("Actions", "&Export Report…"),
        QT_TRANSLATE_NOOP("Actions", "Save the groups as HTML, CSV or JSON"),
        lambda w: w.export.ask(),
        "Ctrl+E",
        enabled=lambda s: s.has_result,
    ),
    ActionSpec(
        "quit",
        "file",
        QT_TRANSLATE_NOOP("Actions", "&Quit"),
        QT_TRANSLATE_NOOP("Actions", "Quit neardup"),
        lambda w: w.close(),
        _STD.Quit,
        separated=True,
    ),
    # Edit
    ActionSpec(
        "undo",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Undo"),
        QT_TRANSLATE_NOOP("Actions", "Take back the last decision or move"),
        lambda w: w.review.undo(),
        _STD.Undo,
        enabled=lambda s: s.idle and s.undoable,
    ),
    ActionSpec(
        "decisions",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Decisions…"),
        QT_TRANSLATE_NOOP("Actions", "Every \u201cnot a duplicate\u201d you made, to review and take back"),
        lambda w: DecisionsDialog(w.review, w).exec(),
        enabled=lambda s: s.ready,
    ),
    ActionSpec(
        "keep",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Keep This One"),
        QT_TRANSLATE_NOOP("Actions", "Make the selected document the group's keeper"),
        lambda w: w.keep_selected(),
        "Ctrl+K",
        buttons=("groups.keep_button",),
        in_tree=True,
        separated=True,
        enabled=lambda s: s.ready and s.document and s.tab == "groups",
    ),
    ActionSpec(
        "not_duplicate",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Not a Duplicate"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Set the selected document apart from its group: it is not a duplicate of them, now and "
            "after rescans; Edit ▸ Undo takes it back",
        ),
        lambda w: w.mark_not_duplicate(),
        "Ctrl+D",
        buttons=("groups.not_dup_button", "pairs.not_dup_button"),
        in_tree=True,
        enabled=lambda s: s.ready and (s.pair if s.tab == "pairs" else s.document and s.tab == "groups"),
    ),
    ActionSpec(
        "trash_others",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "Move Others to &Trash…"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Move every member except the keeper to the system trash, after confirmation. Files in "
            "reference folders are never moved.",
        ),
        lambda w: w.files.trash_others(),
        _STD.Delete,
        buttons=("groups.trash_button",),
        in_tree=True,
        enabled=lambda s: s.idle and s.group,
    ),
    ActionSpec(
        "open",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Open Document"),
        QT_TRANSLATE_NOOP("Actions", "Open the selected document with its application"),
        lambda w: w.files.open_selected(),
        "Ctrl+Return",
        buttons=("groups.open_button", "problems.open_button"),
        in_tree=True,
        separated=True,
        enabled=lambda s: s.document,
    ),
    ActionSpec(
        "reveal",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "Sho&w in Folder"),  # F is Find's
        QT_TRANSLATE_NOOP("Actions", "Open the folder that holds the selected document"),
        lambda w: w.files.reveal_selected(),
        "Ctrl+Shift+R",
        buttons=("groups.reveal_button", "problems.reveal_button"),
        in_tree=True,
        enabled=lambda s: s.document,
    ),
    ActionSpec(
        "find",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Find…"),
        QT_TRANSLATE_NOOP("Actions", "Filter groups by path or topic"),
        lambda w: w.groups.filter_edit.setFocus(),
        _STD.Find,
        separated=True,
    ),
    ActionSpec(
        "preferences",
        "edit",
        QT_TRANSLATE_NOOP("Actions", "&Preferences…"),
        QT_TRANSLATE_NOOP("Actions", "Language, appearance, which file to keep, how similar documents must be"),
        lambda w: w.show_preferences(),
        "Ctrl+,",
        separated=True,
    ),
    # Mark
    ActionSpec(
        "mark_rule",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "Mark &All but the Keepers"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Tick every member of every group except the file it keeps; files in reference folders "
            "are never ticked. Tick or untick any file by hand in the first column.",
        ),
        lambda w: w.review.mark_all_but_keepers(),
        "Ctrl+M",
        buttons=("groups.mark_rule_button",),
        enabled=lambda s: s.has_groups,
    ),
    ActionSpec(
        "mark_by_rule",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "Mark by &Rule…"),
        QT_TRANSLATE_NOOP("Actions", "Tick the files in a folder, matching a name, by date or by size"),
        lambda w: MarkRuleDialog(w.review, w.dialogs, w).exec(),
        "Ctrl+Shift+K",
        buttons=("groups.mark_by_rule_button",),
        enabled=lambda s: s.has_groups,
    ),
    ActionSpec(
        "unmark",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "&Unmark All"),
        QT_TRANSLATE_NOOP("Actions", "Untick every file"),
        lambda w: w.review.marks.set(()),
        "Ctrl+Shift+M",
        buttons=("groups.unmark_button",),
        enabled=lambda s: s.marked,
    ),
    ActionSpec(
        "mark_selected",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "Mark &Selected"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Tick the selected rows (Shift or Ctrl+click to select many); a group's row ticks every "
            "member but its keeper and files in reference folders",
        ),
        lambda w: w.review.mark_rows(*w.groups.selected_rows(), True),
        "Ctrl+Space",
        in_tree=True,
        enabled=lambda s: s.rows_selected,
    ),
    ActionSpec(
        "unmark_selected",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "Unmar&k Selected"),
        QT_TRANSLATE_NOOP("Actions", "Untick the selected rows"),
        lambda w: w.review.mark_rows(*w.groups.selected_rows(), False),
        "Ctrl+Shift+Space",
        in_tree=True,
        enabled=lambda s: s.rows_selected,
    ),
    ActionSpec(
        "trash_marked",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "Move Marked to &Trash…"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Move every ticked file to the system trash, all groups at once, after one confirmation. "
            "A group's keeper and files in reference folders never move.",
        ),
        lambda w: w.files.trash_marked(),
        "Shift+Del",
        buttons=("groups.trash_marked_button",),
        separated=True,
        enabled=lambda s: s.ready and s.marked,
    ),
    ActionSpec(
        "move_marked",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "Move Marked to &Folder…"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Move every ticked file into a folder you choose, keeping their folders below it, after "
            "one confirmation; Edit ▸ Undo puts them back. A group's keeper and reference files "
            "never move.",
        ),
        lambda w: w.files.move_marked(),
        "Ctrl+Shift+O",
        buttons=("groups.move_marked_button",),
        enabled=lambda s: s.ready and s.marked,
    ),
    ActionSpec(
        "copy_marked",
        "mark",
        QT_TRANSLATE_NOOP("Actions", "&Copy Marked Paths"),
        QT_TRANSLATE_NOOP("Actions", "Copy the paths of the ticked files, one a line"),
        lambda w: w.files.copy_marked_paths(),
        "Ctrl+Shift+C",
        buttons=("groups.copy_marked_button",),
        enabled=lambda s: s.marked,
    ),
    # View
    ActionSpec(
        "groups_tab",
        "view",
        QT_TRANSLATE_NOOP("Actions", "&Groups"),
        QT_TRANSLATE_NOOP("Actions", "Show the groups"),
        lambda w: w.tabs.setCurrentWidget(w.groups),
        "Ctrl+1",
    ),
    ActionSpec(
        "pairs_tab",
        "view",
        QT_TRANSLATE_NOOP("Actions", "P&airs"),
        QT_TRANSLATE_NOOP("Actions", "Show every pair of duplicates, one by one"),
        lambda w: w.tabs.setCurrentWidget(w.pairs),
        "Ctrl+2",
    ),
    ActionSpec(
        "problems_tab",
        "view",
        QT_TRANSLATE_NOOP("Actions", "&Problems"),
        QT_TRANSLATE_NOOP("Actions", "Show files that could not be compared"),
        lambda w: w.tabs.setCurrentWidget(w.problems),
        "Ctrl+3",
    ),
    ActionSpec(
        "next_difference",
        "view",
        QT_TRANSLATE_NOOP("Actions", "Next &Difference"),
        QT_TRANSLATE_NOOP("Actions", "Next difference in the pair, or the next passage two documents share"),
        lambda w: w.shown_diff().go(1),
        "F3",
        separated=True,
    ),
    ActionSpec(
        "previous_difference",
        "view",
        QT_TRANSLATE_NOOP("Actions", "Previous D&ifference"),
        QT_TRANSLATE_NOOP("Actions", "Previous difference in the pair, or the passage two documents share before"),
        lambda w: w.shown_diff().go(-1),
        "Shift+F3",
    ),
    # Help
    ActionSpec(
        "guide",
        "help",
        QT_TRANSLATE_NOOP("Actions", "&User Guide"),
        QT_TRANSLATE_NOOP("Actions", "How to find, compare and sort out duplicates, in a few pages"),
        lambda w: UserGuide(w).exec(),
        _STD.HelpContents,
    ),
    ActionSpec(
        "shortcuts",
        "help",
        QT_TRANSLATE_NOOP("Actions", "&Keyboard Shortcuts"),
        QT_TRANSLATE_NOOP("Actions", "Every key of the window"),
        lambda w: ShortcutList(shortcut_rows(), w).exec(),
        "Ctrl+/",
    ),
    ActionSpec(
        "about",
        "help",
        QT_TRANSLATE_NOOP("Actions", "&About neardup"),
        QT_TRANSLATE_NOOP("Actions", "Versions and credits"),
        lambda w: show_about(w, w.db_path),
        separated=True,
    ),
    ActionSpec(
        "about_qt",
        "help",
        QT_TRANSLATE_NOOP("Actions", "About &Qt"),
        QT_TRANSLATE_NOOP("Actions", "About Qt"),
        lambda w: QMessageBox.aboutQt(w),
    ),
    # The Pairs tab's keys, where its table has the focus
    ActionSpec(
        "keep_left",
        None,
        QT_TRANSLATE_NOOP("Actions", "Keep Left"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Keep the left file and tick the right one for the trash or a folder; Edit ▸ Undo takes the keep back",
        ),
        lambda w: w.keep_of_pair(left=True),
        "Alt+Left",
        buttons=("pairs.keep_left_button",),
        scope="pairs.table",
        enabled=lambda s: s.ready and s.pair,
    ),
    ActionSpec(
        "keep_right",
        None,
        QT_TRANSLATE_NOOP("Actions", "Keep Right"),
        QT_TRANSLATE_NOOP(
            "Actions",
            "Keep the right file and tick the left one for the trash or a folder; Edit ▸ Undo takes the keep back",
        ),
        lambda w: w.keep_of_pair(left=False),
        "Alt+Right",
        buttons=("pairs.keep_right_button",),
        scope="pairs.table",
        enabled=lambda s: s.ready and s.pair,
    ),
)


def translated(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def key_sequence(keys: Keys) -> QKeySequence:
    return QKeySequence() if keys is None else QKeySequence(keys)


def keys_text(keys: Keys) -> str:
    """The keys as this platform writes them ("" for none)."""
    return key_sequence(keys).toString(QKeySequence.SequenceFormat.NativeText)


def _widget(window: QObject, path: str) -> Any:
    obj: Any = window
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def build_actions(window: QMainWindow, specs: Iterable[ActionSpec] = ACTIONS) -> dict[str, QAction]:
    """Make every action of ``specs`` on ``window``: in its menu, on its buttons, in the context menus."""
    menus = {key: window.menuBar().addMenu(translated(title)) for key, title in MENUS}
    tree = _widget(window, "groups.tree")
    made: dict[str, QAction] = {}
    for spec in specs:
        action = QAction(translated(spec.text), window)
        keys = key_sequence(spec.keys)
        action.setShortcut(keys)
        tip = translated(spec.tip)
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False, spec=spec: spec.trigger(window))
        if spec.menu is not None:
            if spec.separated:
                menus[spec.menu].addSeparator()
            menus[spec.menu].addAction(action)
        if spec.scope:
            scope: QWidget = _widget(window, spec.scope)
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            scope.addAction(action)
        if spec.in_tree:
            tree.addAction(action)
        for path in spec.buttons:
            _follow(_widget(window, path), action, tip, keys_text(spec.keys))
        made[spec.name] = action
    made["preferences"].setMenuRole(QAction.MenuRole.PreferencesRole)
    made["about"].setMenuRole(QAction.MenuRole.AboutRole)
    made["about_qt"].setMenuRole(QAction.MenuRole.AboutQtRole)
    made["quit"].setMenuRole(QAction.MenuRole.QuitRole)
    return made


def _follow(button: QAbstractButton, action: QAction, tip: str, keys: str) -> None:
    """A button that does what ``action`` does, is enabled when it is, and says so (with the keys)."""
    button.clicked.connect(action.trigger)
    if not button.toolTip():  # a button may say it its own way (the Pairs tab's "these two")
        button.setToolTip(
            QCoreApplication.translate("Actions", "{tip} ({keys})").format(tip=tip, keys=keys) if keys else tip
        )
    button.setEnabled(action.isEnabled())
    action.changed.connect(lambda: button.setEnabled(action.isEnabled()))


UNDO_TEXTS = {
    "not a duplicate": QT_TRANSLATE_NOOP("Actions", "&Undo Not a Duplicate"),
    "keep": QT_TRANSLATE_NOOP("Actions", "&Undo Keep"),
    "move": QT_TRANSLATE_NOOP("Actions", "&Undo Move"),
}
"""Edit ▸ Undo names what it would take back (``Undoable.what``)."""


def undo_text(what: str) -> str:
    return translated(UNDO_TEXTS.get(what, QT_TRANSLATE_NOOP("Actions", "&Undo")))


def update_enabled(actions: dict[str, QAction], state: WindowState, specs: Iterable[ActionSpec] = ACTIONS) -> None:
    """Each action enabled when its rule says it can act (its buttons follow)."""
    for spec in specs:
        actions[spec.name].setEnabled(bool(spec.enabled(state)))


def shortcut_rows(specs: Iterable[ActionSpec] = ACTIONS) -> list[tuple[str, str]]:
    """(what it does, keys) for every action that has keys, in the order of the menus."""
    return [(_plain(translated(s.text)), keys_text(s.keys)) for s in specs if keys_text(s.keys)]


def _plain(text: str) -> str:
    """A menu text without its mnemonic marker or trailing ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()
