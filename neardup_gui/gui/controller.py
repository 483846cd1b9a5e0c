"""The review without widgets: what is shown, what is marked, which pair is compared, and what each
action would do and did.

The window owns widgets and dialogs; this object owns the review's state (the view, the marks, the
pair compared, the last action that can be undone) and turns a person's intent into calls on the
session, which it hands to ``run``: the window's serial runner, or a plain call in tests. Results come
back through ``run``'s ``returned`` callback (on the GUI thread in the app) and are announced by events.
It imports no Qt, so the whole review is tested without a window (tests/gui/test_controller.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.i18n import translate
from ..core.models import Document, Find, Group, ScanOptions, Search, Similarity, Thresholds
from ..core.read.extract import READ_WITHOUT_OCR
from ..core.review.pairs import PairTable
from ..core.review.rules import (
    BatchPlan,
    FileOutcome,
    KeeperRule,
    MarkCriteria,
    MarkSelection,
    TrashPlan,
    all_but_keepers,
    batch_plan,
    destination_of,
    human_size,
    in_folders,
    kept_anywhere,
    members_matching,
    move_target_problem,
    trash_plan,
)
from ..core.review.words import listed
from ..core.session import Decision, Session, Undoable, View


def rescan_reasons(view: View | None, thresholds: Thresholds, chosen: ScanOptions) -> tuple[str, ...]:
    """What the window shows as chosen that the grouping shown does not follow until the next scan, a
    sentence each (none when everything shown applies): common text to leave out that these files were
    never analysed for (a trash changed the collection, an older database), folders added since
    the last scan, and the patterns, file types or OCR changed since. ``chosen``: what the next scan would
    read. A folder taken away, a reference folder and the thresholds apply at once, so they are never here."""
    if view is None:
        return ()
    said = []
    if thresholds.ignore_boilerplate and not view.boilerplate_available:
        said.append(translate("Controller", "Common text cannot be left out until these files are scanned again."))
    last = view.scanned_with
    if last is None:  # not recorded (an older database, a Spark result): nothing to compare with
        return tuple(said)
    added = sum(1 for root in chosen.roots if not in_folders(os.path.realpath(root), last.roots))
    if added:
        said.append(
            translate(
                "Controller", "Not in the results until the next scan: %n folder(s) added since the last.", None, added
            )
        )
    # named as the folders panel names them, where they are changed
    changed = [
        name
        for name, differs in (
            (translate("FoldersPanel", "Include"), set(chosen.include) != set(last.include)),  # in any order
            (translate("FoldersPanel", "Exclude"), set(chosen.exclude) != set(last.exclude)),
            (translate("FoldersPanel", "File types"), chosen.kinds & READ_WITHOUT_OCR != last.kinds & READ_WITHOUT_OCR),
            (translate("Controller", "OCR"), chosen.ocr != last.ocr),  # on or off, or other languages
        )
        if differs
    ]
    if changed:
        settings = listed(changed)
        said.append(
            translate("Controller", "Changed since the last scan, applied at the next: {settings}.").format(
                settings=settings
            )
        )
    return tuple(said)


class Run(Protocol):
    """Runs a session call in order with every other (``fn(*args, progress=, cancel=)``) and hands its
    result to ``returned``; a failure is shown under ``title`` by whoever runs it."""

    def __call__(
        self, fn: Callable[..., Any], *args: Any, returned: Callable[[Any], None] | None = ..., title: str = ...
    ) -> Any: ...


class Event:
    """A minimal signal: listeners called in the order they connected."""

    def __init__(self) -> None:
        self._listeners: list[Callable[..., None]] = []

    def connect(self, listener: Callable[..., None]) -> None:
        self._listeners.append(listener)

    def emit(self, *args: Any) -> None:
        for listener in list(self._listeners):
            listener(*args)


class Marks:
    """The ticked documents, shared by the controller (rules, actions) and the tree's check boxes."""

    def __init__(self) -> None:
        self.ids: frozenset[int] = frozenset()
        self.changed = Event()  # (the documents whose mark changed)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self.ids

    def set(self, ids: Iterable[int]) -> None:
        new = frozenset(ids)
        if new != self.ids:
            changed = new ^ self.ids
            self.ids = new
            self.changed.emit(changed)

    def update(self, ids: Iterable[int], marked: bool) -> None:
        ids = frozenset(ids)
        self.set(self.ids | ids if marked else self.ids - ids)


@dataclass(frozen=True, slots=True)
class Pair:
    """What the pair view shows: a group's keeper on the left, another member on the right."""

    group: Group
    left: Document
    right: Document
    similarity: Similarity  # of right against left (the keeper)


@dataclass(frozen=True, slots=True)
class Report:
    """What became of files after an action, in words: a status line, and the problems to show."""

    headline: str
    problems: str = ""  # empty when everything went as planned
    nothing_done: bool = False  # not one file was moved (the keeper changed, or every move failed)


class ReviewController:
    """One review over one session; the window calls it and listens to its events."""

    def __init__(self, session: Session, run: Run) -> None:
        self.session = session
        self.run = run
        self.view: View | None = None
        self.docs: Mapping[int, Document] = {}
        self.marks = Marks()
        self.pair: Pair | None = None
        self.undoable: Undoable | None = None
        self.reference_folders: tuple[str, ...] = tuple(session.reference_folders)
        self._kept: set[int] = set()  # documents some group keeps (review.kept_anywhere)
        self.view_changed = Event()  # (view | None)
        self.pair_changed = Event()  # (pair | None): show it, or clear the pair view
        self.message = Event()  # (text): a status line
        self.undo_changed = Event()  # (undoable | None)
        self.acted = Event()  # (report): what an action on files did, for the window to show

    # -- what is shown ----------------------------------------------------------------------
    def show(self, view: View | None) -> None:
        """Show a grouping; nothing from before it stays if it no longer holds (marks, the pair)."""
        self.view = view
        self.docs = view.documents if view is not None else {}
        self._kept = kept_anywhere(view.result.groups, view.keepers, view.chosen) if view else set()
        grouped = view.listing.places.keys() if view is not None else set()
        self.marks.set(self.marks.ids & grouped)  # a mark on a file that left goes with it
        self.view_changed.emit(view)
        if self.pair is not None and not self._still_grouped(self.pair):
            self.forget_pair()

    @property
    def kept(self) -> frozenset[int]:
        """The documents some group keeps."""
        return frozenset(self._kept)

    def group_of(self, doc_id: int) -> Group | None:
        """The first group that lists the document (it may be listed under several)."""
        places = self.view.listing.places.get(doc_id) if self.view is not None else None
        return self.view.result.groups[places[0][0]] if self.view is not None and places else None

    def keeper(self, group: Group) -> Document:
        keepers = self.view.keepers if self.view is not None else {}
        return self.docs[keepers.get(group.id, group.representative)]

    def _still_grouped(self, pair: Pair) -> bool:
        group = self.group_of(pair.right.id)
        return group is not None and self.keeper(group).id == pair.left.id and pair.left.id != pair.right.id

    # -- the pair ---------------------------------------------------------------------------
    def select(self, group: Group, document: Document) -> None:
        """A member's row was selected: it against the group's keeper (the keeper's own row shows the
        keeper against the next member). Groups are measured from their keepers (the session rebases
        them), so the numbers are the member's own."""
        keeper = self.keeper(group)
        members = {m.document_id: m for m in group.members}
        other = members.get(document.id) if document.id != keeper.id else None
        if other is None:
            other = next((m for m in group.members if m.document_id != keeper.id), None)
        if other is None:
            self.forget_pair()
            return
        self.pair = Pair(group, keeper, self.docs[other.document_id], other.similarity)
        self.pair_changed.emit(self.pair)

    def forget_pair(self) -> None:
        if self.pair is not None:
            self.pair = None
            self.pair_changed.emit(None)

    def forget_pair_unless(self, still_there: Callable[[Pair], bool]) -> None:
        """Clear the pair view when its pair is no longer listed (a filter hid its group)."""
        if self.pair is not None and not still_there(self.pair):
            self.forget_pair()

    # -- the Pairs view ------------------------------------------------------------------------
    def pairs(self, returned: Callable[[View, PairTable], None], search: Search | None = None) -> Any:
        """Every pair of the grouping shown that ``search`` finds (its duplicates by default), with its numbers
        (measured once a grouping and a search), handed to ``returned`` with its view unless another grouping
        is shown by then. Returns what ``run`` returns (the window's: the job, to cancel)."""
        view = self.view
        if view is None:
            return None
        session = self.session
        search = search if search is not None else Search()

        def work(*, progress: Any, cancel: Any) -> PairTable | None:
            # another grouping may have come first (a scan queued before): its own turn will come
            return session.pairs(view, search, progress=progress, cancel=cancel) if session.view is view else None

        def done(table: PairTable | None) -> None:
            if table is not None and self.view is view:
                returned(view, table)

        titles = {
            Find.DUPLICATES: translate("Controller", "The pairs could not be measured"),
            Find.EXCERPTS: translate("Controller", "The excerpts could not be looked for"),
            Find.PASSAGES: translate("Controller", "The shared passages could not be looked for"),
        }
        return self.run(work, returned=done, title=titles[search.find])

    def keep_of_pair(self, keep: Document, other: Document) -> None:
        """Keep ``keep`` (as Keep this one: undoable, in Decisions) and tick ``other`` for the trash or a
        folder, unless a group keeps it or it lies in a reference folder (then it is said why not)."""
        keep_name, other_name = (os.path.basename(d.display_path) for d in (keep, other))
        session = self.session

        def work(*, progress: Any, cancel: Any) -> tuple[View, Undoable | None]:
            return session.keep(keep, progress=progress, cancel=cancel), session.undoable

        def done(result: tuple[View, Undoable | None]) -> None:
            self._done(result[0], "", result[1])
            if other.id in self._kept or in_folders(other.path, self.reference_folders):
                message = translate(
                    "Controller",
                    "Keeping {keep}; {other} is kept too (a group keeps it, or it is "
                    "in a reference folder), so it is not ticked.",
                )
            elif self.group_of(other.id) is not None:
                self.marks.update([other.id], True)
                message = translate(
                    "Controller",
                    "Keeping {keep}; {other} is ticked (Mark ▸ Move Marked to Trash). Edit ▸ Undo takes the keep back.",
                )
            else:
                message = translate("Controller", "Keeping {keep}.")
            self.message.emit(message.format(keep=keep_name, other=other_name))

        self.run(work, returned=done, title=translate("Controller", "The choice could not be saved"))

    def mark_pair_not_duplicate(self, a: Document, b: Document) -> None:
        """``a`` and ``b`` are not duplicates: remembered, grouped again at once; Undo takes it back."""
        names = tuple(os.path.basename(d.display_path) for d in (a, b))
        session = self.session

        def work(*, progress: Any, cancel: Any) -> tuple[View, Undoable | None]:
            return session.mark_not_duplicate(a, [b], progress=progress, cancel=cancel), session.undoable

        def done(result: tuple[View, Undoable | None]) -> None:
            view, undoable = result
            if undoable is self.undoable:  # nothing was ruled: the same text
                message = translate("Controller", "{a} and {b} have the same text: identical copies stay together.")
            else:
                message = translate(
                    "Controller",
                    "{a} and {b} are not duplicates: they are no longer paired or "
                    "grouped together. Edit ▸ Undo takes this back.",
                )
            self._done(view, message.format(a=names[0], b=names[1]), undoable)

        self.run(work, returned=done, title=translate("Controller", "The decision could not be saved"))

    # -- decisions ---------------------------------------------------------------------------
    def keep(self, document: Document) -> None:
        """Keep this file in its group: remembered across re-groupings and restarts."""
        name = os.path.basename(document.display_path)
        session = self.session

        def work(*, progress: Any, cancel: Any) -> tuple[View, Undoable | None]:
            return session.keep(document, progress=progress, cancel=cancel), session.undoable

        def done(result: tuple[View, Undoable | None]) -> None:
            message = translate("Controller", "Keeping {name}. Edit ▸ Undo takes this back.").format(name=name)
            self._done(result[0], message, result[1])

        self.run(work, returned=done, title=translate("Controller", "The choice could not be saved"))

    def mark_not_duplicate(self, document: Document, group: Group | None = None) -> None:
        """``document`` is not a duplicate of the rest of ``group`` (the group it was selected in; by default
        the first it is listed under): it leaves at once; Undo takes it back."""
        group = group if group is not None else self.group_of(document.id)
        if group is None:
            return
        others = [self.docs[m.document_id] for m in group.members if m.document_id != document.id]
        name = os.path.basename(document.display_path)
        session = self.session

        def work(*, progress: Any, cancel: Any) -> tuple[View, Undoable | None]:
            return session.mark_not_duplicate(document, others, progress=progress, cancel=cancel), session.undoable

        def done(result: tuple[View, Undoable | None]) -> None:
            view, undoable = result
            with_it = {
                m.document_id
                for g in view.result.groups
                if any(m.document_id == document.id for m in g.members)
                for m in g.members
            } - {document.id}
            count = len(others)  # a name, not a call: lupdate skips a translate() whose arguments call
            if with_it and undoable is self.undoable:  # nothing was ruled: the others are copies of it
                message = translate(
                    "Controller", "{name} has the same text as the rest of its group: identical copies stay together."
                )
            elif with_it & {d.id for d in others}:  # what is left with it of its group: its identical copies
                message = translate(
                    "Controller",
                    "{name} is no longer grouped with the documents that differ from it; its identical "
                    "copies stay with it. Edit ▸ Undo takes this back.",
                )
            elif with_it:  # it was listed under other groups too, and stays there
                message = translate(
                    "Controller",
                    "{name} is no longer grouped with the %n other document(s) of this group; it stays in "
                    "its other groups. Edit ▸ Undo takes this back.",
                    None,
                    count,
                )
            else:
                message = translate(
                    "Controller",
                    "{name} is no longer grouped with the %n other document(s) of its group. "
                    "Edit ▸ Undo takes this back.",
                    None,
                    count,
                )
            self._done(view, message.format(name=name), undoable)

        self.run(work, returned=done, title=translate("Controller", "The decision could not be saved"))

    def undo(self) -> None:
        """Take back the last "not a duplicate" or move into a folder."""
        if self.undoable is None:
            return
        what = self.undoable.what

        def undone(done: tuple[FileOutcome | None, View]) -> None:
            outcome, view = done
            if outcome is None and what == "keep":
                self._done(view, translate("Controller", "The file to keep is chosen by the rule again."), None)
            elif outcome is None:
                self._done(view, translate("Controller", "The last \u201cnot a duplicate\u201d was taken back."), None)
            else:
                self._done(view, "", None)
                self.acted.emit(self.describe(outcome, "back"))

        title = (
            translate("Controller", "The move could not be taken back")
            if what == "move"
            else translate("Controller", "The choice could not be taken back")
            if what == "keep"
            else translate("Controller", "The \u201cnot a duplicate\u201d could not be taken back")
        )
        self.run(self.session.undo_last, returned=undone, title=title)

    def decisions(self, returned: Callable[[list[Decision]], None]) -> None:
        """Every "not a duplicate" in the database, newest first (for the decisions window)."""
        self.run(
            self.session.decisions, returned=returned, title=translate("Controller", "The decisions could not be read")
        )

    def withdraw(self, decisions: Sequence[Decision], returned: Callable[[], None] | None = None) -> None:
        """Take back these decisions: their pairs may be grouped again."""

        def done(view: View) -> None:
            count = len(decisions)
            self._done(
                view,
                translate("Controller", "Took back %n decision(s): those documents may be grouped again.", None, count),
            )
            if returned is not None:
                returned()

        if decisions:
            self.run(
                self.session.withdraw_decisions,
                list(decisions),
                returned=done,
                title=translate("Controller", "The decisions could not be taken back"),
            )

    def set_keeper_rule(self, rule: KeeperRule, reference_folders: Sequence[str] | None = None) -> None:
        """Choose keepers by another rule (or reference folders): the groups stay, keepers may change."""
        if reference_folders is not None:
            self.reference_folders = tuple(reference_folders)

        def shown(view: View | None) -> None:
            if view is not None:
                self._done(view, "")

        self.run(self.session.set_keeper_rule, rule, self.reference_folders, returned=shown)

    def _done(self, view: View, message: str, undoable: Undoable | None | bool = False) -> None:
        if undoable is not False:
            self.undoable = undoable if isinstance(undoable, Undoable) else None
            self.undo_changed.emit(self.undoable)
        self.show(view)
        if message:
            self.message.emit(message)

    # -- marks -------------------------------------------------------------------------------
    def mark_all_but_keepers(self) -> None:
        if self.view is not None:
            self.marks.set(
                all_but_keepers(
                    self.view.result.groups,
                    self.view.keepers,
                    self.docs,
                    self.reference_folders,
                    self.view.result.thresholds,
                    self.view.chosen,
                )
            )

    def mark_matching(self, criteria: MarkCriteria, *, mark: bool = True) -> MarkSelection:
        """Tick (or untick) the members a rule picks; never a keeper or a reference file."""
        if self.view is None:
            return MarkSelection(frozenset(), 0, 0)
        selection = members_matching(
            criteria,
            self.view.result.groups,
            self.view.keepers,
            self.docs,
            self.reference_folders,
            self.view.result.thresholds,
            self.view.chosen,
        )
        self.marks.update(selection.documents, mark)
        return selection

    def mark_rows(self, documents: Iterable[Document], groups: Iterable[Group], marked: bool) -> None:
        """Tick (or untick) rows of the groups tree: a member's row is that file; a group's row is every
        member the trash would take (not the keeper, not a file in a reference folder)."""
        chosen = {d.id for d in documents}
        chosen.update(d.id for g in groups for d in self.group_trash_plan(g).documents)
        self.marks.update(chosen, marked)

    def marked_size(self) -> int:
        return sum(self.docs[d].size for d in self.marks.ids)

    def marked_summary(self) -> str:
        if not self.marks.ids:
            return ""
        return translate("Controller", "{count} marked · {size}").format(
            count=f"{len(self.marks):,}", size=human_size(self.marked_size())
        )

    def marked_paths(self) -> str:
        paths = sorted(self.docs[d].display_path for d in self.marks.ids)
        return "\n".join(paths) + ("\n" if paths else "")

    # -- acting on files ---------------------------------------------------------------------
    def group_trash_plan(self, group: Group) -> TrashPlan:
        return trash_plan(group, self.keeper(group).id, self.docs, self.reference_folders, self._kept)

    def marked_plan(self) -> BatchPlan:
        if self.view is None:
            return BatchPlan((), 0, 0)
        return batch_plan(
            self.view.result.groups,
            self.view.keepers,
            set(self.marks.ids),
            self.docs,
            self.reference_folders,
            self.view.chosen,
        )

    def move_problem(self, destination: str) -> str:
        """Why the marked files cannot go into ``destination`` (empty when they can)."""
        return move_target_problem(destination, self.view.roots if self.view is not None else ())

    def move_example(self, plan: BatchPlan, destination: str) -> tuple[str, str]:
        """Where the plan's first file would go, to show in the confirmation."""
        first = plan.batches[0][1][0]
        roots = self.view.roots if self.view is not None else ()
        return first.display_path, destination_of(first.path, roots, destination)

    def trash(self, batches: Sequence[tuple[Document, Sequence[Document]]]) -> None:
        """Files to the system trash (after the window's one confirmation), group by group."""
        self.run(
            self.session.trash_batches,
            batches,
            returned=lambda done: self._acted(done, "trash"),
            title=translate("Controller", "The files could not be moved"),
        )

    def move(self, batches: Sequence[tuple[Document, Sequence[Document]]], destination: str) -> None:
        """Files into ``destination`` keeping their relative paths; one undo takes the whole move back."""
        session = self.session

        def work(*, progress: Any, cancel: Any) -> tuple[tuple[FileOutcome, View | None], Undoable | None]:
            return session.move_batches(batches, destination, progress=progress, cancel=cancel), session.undoable

        self.run(
            work,
            returned=lambda done: self._acted(done[0], destination, done[1]),
            title=translate("Controller", "The files could not be moved"),
        )

    def _acted(self, done: tuple[FileOutcome, View | None], where: str, undoable: Undoable | None = None) -> None:
        outcome, view = done
        report = self.describe(outcome, where)
        if view is not None:  # the session's view, also when nothing moved (missing files have left it)
            self._done(view, "", undoable if outcome.done and where != "trash" else False)
        self.acted.emit(report)

    @staticmethod
    def describe(outcome: FileOutcome, where: str) -> Report:
        """An outcome in words: ``where`` is "trash", "back" (an undone move) or the destination folder."""
        if outcome.keeper_problem and not outcome.done:
            return Report(
                translate("Controller", "Nothing was moved"),
                translate(
                    "Controller",
                    "The file to keep is not the one that was compared any more — {problem}."
                    "\n\nNothing was moved. Scan again to compare the files as they are now.",
                ).format(problem=outcome.keeper_problem),
                nothing_done=True,
            )
        n = len(outcome.done)
        if where == "trash":
            headline = translate("Controller", "Moved %n file(s) to the trash.", None, n)
        elif where == "back":
            headline = translate("Controller", "Put %n file(s) back where they were.", None, n)
        elif not n:
            headline = translate("Controller", "No file was moved into {folder}.").format(folder=where)
        else:
            headline = translate(
                "Controller", "Moved %n file(s) into {folder}. Edit ▸ Undo puts them back.", None, n
            ).format(folder=where)
        notes = []
        if outcome.missing:
            missing = len(outcome.missing)
            notes.append(
                translate("Controller", "%n file(s) had gone:", None, missing) + "\n" + "\n".join(outcome.missing)
            )
        if outcome.skipped:
            heading = (
                translate("Controller", "Left where they are:")
                if where == "back"
                else translate(
                    "Controller",
                    "Left where they are, because they are not the files that were "
                    "compared any more (scan again to compare them):",
                )
            )
            notes.append(heading + "\n" + "\n".join(ReviewController._why(p, why) for p, why in outcome.skipped))
        if outcome.failed:
            failed = len(outcome.failed)
            notes.append(
                translate("Controller", "%n file(s) could not be moved; each is still where it was:", None, failed)
                + "\n"
                + "\n".join(ReviewController._why(p, why) for p, why in outcome.failed)
            )
        if outcome.keeper_problem:
            notes.append(
                translate(
                    "Controller",
                    "In some groups nothing was moved, because the file to keep is not the one "
                    "that was compared any more: {problem}.",
                ).format(problem=outcome.keeper_problem)
            )
        # a move into a folder that moved nothing (and forgot nothing) is said as such, not as a success
        nothing = where not in ("trash", "back") and not n and not outcome.missing and bool(notes)
        return Report(headline, "\n\n".join(notes), nothing_done=nothing)

    @staticmethod
    def _why(path: str, why: str) -> str:
        """A file and what kept it where it is, on one line."""
        return translate("Controller", "{path}: {reason}").format(path=path, reason=why)
