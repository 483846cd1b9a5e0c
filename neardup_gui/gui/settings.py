"""What the app remembers between sessions (QSettings): window, folders, patterns, thresholds, database,
and the folder each file dialog was left in."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

from ..core.models import Find, Method, PassageSearch, Search, Thresholds
from ..core.review.rules import KeeperRule
from ..core.store.store import default_db_path


@dataclass
class AppState:
    folders: list[str] = field(default_factory=list)
    reference_folders: list[str] = field(default_factory=list)
    include: str = ""
    exclude: str = ""
    # folders.TYPE_GROUPS' keys: a type added since the settings were saved is ticked (load); "office" (Word,
    # OpenDocument and RTF before .doc and WPS were read) keeps its key, so its saved choice holds for Documents
    file_types: list[str] = field(default_factory=lambda: ["text", "pdf", "office", "sheets", "slides", "web", "mail"])
    ocr: bool = False  # read scans and images with OCR (slow: off until asked)
    ocr_languages: str = "chi_sim+eng"
    thresholds: Thresholds = field(default_factory=Thresholds)
    search: Search = field(default_factory=Search)  # what is looked for: duplicates, excerpts, shared passages
    keeper_rule: KeeperRule = KeeperRule.ORIGINAL
    ignore_layout: bool = True  # the pair view: spacing, line breaks, page headers are not differences
    wrap_lines: bool = True
    hidden_columns: list[int] | None = None  # the groups tree's, as the person chose them (None: the defaults)
    language: str = ""  # a key of core.i18n.LANGUAGES, or "" for the system's (read at start: gui/app.py)
    theme: str = "system"  # "system" (follows the desktop's light/dark), "light" or "dark"
    database: str = ""
    geometry: QByteArray | None = None
    splitter: QByteArray | None = None  # the Groups tab's, between the tree and the pair view
    views: dict[str, QByteArray] = field(default_factory=dict)  # the other splitters and the tables' headers
    dialogs: dict[str, str] = field(default_factory=dict)  # the folder each file dialog was left in (FileDialogs)


class FileDialogs:
    """Qt's file dialogs, each opening in the folder it was last left in: ``AppState.dialogs`` by the
    dialog's key (its own: adding a folder to scan is not exporting a report); home the first time, or
    once that folder is gone."""

    def __init__(self, state: AppState) -> None:
        self._state = state

    def folder(self, parent: QWidget, key: str, title: str, start: str = "") -> str:
        """A folder chosen, or "" (cancelled); ``start``: one already named (a field beside the button)."""
        chosen = QFileDialog.getExistingDirectory(parent, title, start if os.path.isdir(start) else self._start(key))
        if chosen:
            self._state.dialogs[key] = chosen
        return chosen

    def save_file(
        self, parent: QWidget, key: str, title: str, name: str, filters: str, chosen_filter: str = ""
    ) -> tuple[str, str]:
        """The file to save to and the filter chosen, or ("", ...) (cancelled). ``name``: the file name offered,
        in the folder last left; a whole path (the one typed before) is offered as it is."""
        path, chosen = QFileDialog.getSaveFileName(
            parent, title, os.path.join(self._start(key), name), filters, chosen_filter
        )
        if path:
            self._state.dialogs[key] = os.path.dirname(path)
        return path, chosen

    def _start(self, key: str) -> str:
        folder = self._state.dialogs.get(key, "")
        return folder if folder and os.path.isdir(folder) else str(Path.home())


# QSettings.value() gives back whatever the platform's store holds: text, a number, a list, or None.
def _list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in value]


def _bool(value: Any, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes")
    return bool(value)


def load(settings: QSettings) -> AppState:
    state = AppState()
    state.folders = _list(settings.value("folders"))
    state.reference_folders = _list(settings.value("reference_folders"))
    state.include = str(settings.value("include", "") or "")
    state.exclude = str(settings.value("exclude", "") or "")
    state.file_types = [
        key
        for key in state.file_types  # a type the app did not read yet is ticked
        if _bool(settings.value(f"scan_{key}"), True)
    ]
    state.ocr = _bool(settings.value("ocr"), False)
    state.ocr_languages = str(settings.value("ocr_languages", state.ocr_languages) or state.ocr_languages)
    hamming: Any = settings.value("hamming", 8)
    jaccard: Any = settings.value("jaccard", 0.8)
    try:
        state.thresholds = Thresholds(
            Method(str(settings.value("method", Method.MINHASH.value))),
            int(hamming),  # text or a number: what does not convert raises, and the defaults are taken
            float(jaccard),
            _bool(settings.value("ignore_boilerplate"), True),
        )
    except (ValueError, TypeError):
        state.thresholds = Thresholds()
    defaults = Search()
    containment: Any = settings.value("containment", defaults.containment)
    words: Any = settings.value("passage_words", defaults.passages.words)
    common: Any = settings.value("passage_common", defaults.passages.common)
    try:
        state.search = Search(
            Find(str(settings.value("find", Find.DUPLICATES.value))),
            float(containment),
            PassageSearch(int(words), int(common)),
        )
    except (ValueError, TypeError):
        state.search = defaults
    try:
        state.keeper_rule = KeeperRule(str(settings.value("keeper_rule", KeeperRule.ORIGINAL.value)))
    except ValueError:
        state.keeper_rule = KeeperRule.ORIGINAL
    state.ignore_layout = _bool(settings.value("ignore_layout"), True)
    state.wrap_lines = _bool(settings.value("wrap_lines"), True)
    hidden = settings.value("hidden_columns")
    if hidden is not None:
        try:
            state.hidden_columns = [int(c) for c in _list(hidden)]
        except ValueError:
            state.hidden_columns = None
    state.language = str(settings.value("language", "") or "")
    state.theme = str(settings.value("theme", "system") or "system")
    state.database = str(settings.value("database", "") or "") or str(default_db_path())
    state.geometry = settings.value("geometry")
    state.splitter = settings.value("splitter")
    settings.beginGroup("views")
    state.views = {key: value for key in settings.childKeys() if isinstance(value := settings.value(key), QByteArray)}
    settings.endGroup()
    settings.beginGroup("dialogs")
    state.dialogs = {key: value for key in settings.childKeys() if isinstance(value := settings.value(key), str)}
    settings.endGroup()
    return state


def save(settings: QSettings, state: AppState) -> None:
    settings.setValue("folders", state.folders)
    settings.setValue("reference_folders", state.reference_folders)
    settings.setValue("include", state.include)
    settings.setValue("exclude", state.exclude)
    for key in AppState().file_types:
        settings.setValue(f"scan_{key}", key in state.file_types)
    settings.setValue("ocr", state.ocr)
    settings.setValue("ocr_languages", state.ocr_languages)
    settings.setValue("method", state.thresholds.method.value)
    settings.setValue("hamming", state.thresholds.hamming)
    settings.setValue("jaccard", state.thresholds.jaccard)
    settings.setValue("ignore_boilerplate", state.thresholds.ignore_boilerplate)
    settings.setValue("find", state.search.find.value)
    settings.setValue("containment", state.search.containment)
    settings.setValue("passage_words", state.search.passages.words)
    settings.setValue("passage_common", state.search.passages.common)
    settings.setValue("keeper_rule", state.keeper_rule.value)
    settings.setValue("ignore_layout", state.ignore_layout)
    settings.setValue("wrap_lines", state.wrap_lines)
    if state.hidden_columns is not None:
        settings.setValue("hidden_columns", [str(c) for c in state.hidden_columns] or "")
    settings.setValue("language", state.language)
    settings.setValue("theme", state.theme)
    settings.setValue("database", state.database)
    for key in ("geometry", "splitter"):
        value = getattr(state, key)
        if value is not None:
            settings.setValue(key, value)
    for key, view in state.views.items():
        settings.setValue(f"views/{key}", view)
    for key, folder in state.dialogs.items():
        settings.setValue(f"dialogs/{key}", folder)
    settings.sync()
