"""Threshold moves while the slider is dragged: one grouping is made at a time, and while it is made only
the last position asked for waits (the ones passed on the way are never computed)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QStatusBar

from ..core.jobs import ProgressEvent
from ..core.models import Thresholds
from ..core.session import Session, View
from .operation import Operations


class Regrouping(QObject):
    def __init__(
        self,
        ops: Operations,
        session: Session,
        thresholds: Callable[[], Thresholds],
        shown: Callable[[View], None],
        settled: Callable[[], None],
        status: QStatusBar,
        may_run: Callable[[], bool],
    ) -> None:
        """``thresholds`` gives the position now; ``shown`` gets each grouping; ``settled`` is called once
        the last one asked for is shown; nothing runs unless ``may_run`` (a grouping is shown: not after
        the last folder left, nor after the database was set aside)."""
        super().__init__(status)
        self._ops, self._session, self._thresholds = ops, session, thresholds
        self._shown, self._settled, self._status, self._may_run = shown, settled, status, may_run
        self.running = False
        self._pending = False
        self._message = ""  # the last "preparing groups" shown, cleared when they are ready

    def request(self) -> None:
        if not self._may_run():
            self._pending = False
            return
        if self.running:
            self._pending = True
            return
        self.running, self._pending = True, False
        self._ops(self._session.regroup, self._thresholds()).progress(self.progress).success(self._shown).failure(
            self.tr("Grouping failed")
        ).finished(self.finished).run()

    def progress(self, event: ProgressEvent) -> None:
        """A threshold below what the groups were prepared for needs a new search: say how far it is."""
        if event.total and event.total > 1000:
            percent = 100 * event.done // event.total
            self._message = self.tr("Preparing groups for this threshold… {percent} %").format(percent=percent)
            self._status.showMessage(self._message, 3000)

    def finished(self) -> None:
        self.running = False
        if self._message and self._status.currentMessage() == self._message:
            self._status.clearMessage()  # the groups are shown: the last "75 %" would stay up to 3 s
        self._message = ""
        if self._pending:
            self.request()
        else:
            self._settled()
