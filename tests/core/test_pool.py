import os
import signal
import time

import pytest

from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.workers.pool import TaskFailed, WorkerPool, run_in_batches, run_isolated


def behave(task):
    """Top-level so spawned workers can import it."""
    kind, value = task
    if kind == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if kind == "exit":
        os._exit(3)
    if kind == "hang":
        time.sleep(60)
    if kind == "raise":
        raise RuntimeError("boom")
    if kind == "hog":  # touches ``value`` MiB and holds them a while, as a large text does
        held = b"x" * (value << 20)
        time.sleep(0.5)
        return len(held)
    if kind == "grab":  # asks for ``value`` MiB at once
        return len(bytearray(value << 20))
    if kind == "pid":
        return os.getpid()
    if kind == "nothing":  # a task run for what it writes
        return None
    return value * 2


@pytest.mark.e2e
def test_a_crash_or_hang_costs_that_task_only_and_the_pool_recovers():
    tasks = (
        [("ok", i) for i in range(6)]
        + [("crash", 0), ("hang", 0), ("exit", 0), ("raise", 0)]
        + [("ok", i) for i in range(6, 12)]
    )
    started = time.monotonic()
    results = dict(run_isolated(behave, tasks, workers=2, timeout=2.0))
    assert time.monotonic() - started < 30
    assert [results[("ok", i)] for i in range(12)] == [i * 2 for i in range(12)]
    assert "crashed" in results[("crash", 0)].reason and "SIGSEGV" in results[("crash", 0)].reason
    assert "longer than 2 s" in results[("hang", 0)].reason
    assert "exit code 3" in results[("exit", 0)].reason
    assert isinstance(results[("raise", 0)], TaskFailed) and "boom" in results[("raise", 0)].reason


@pytest.mark.e2e
def test_batches_run_as_one_task_each_and_a_failure_in_one_costs_its_own_task_only():
    """Several tasks travel to one worker together; a batch whose worker crashed, hung or raised is run
    again task by task, so every other task of it still gets its answer, each task exactly once."""
    batches = [
        (("pid", 0), ("pid", 1), ("pid", 2)),
        (("ok", 0), ("ok", 1), ("crash", 0), ("ok", 2)),
        (("ok", 3), ("hang", 0)),
        (("raise", 0), ("ok", 4)),
        (("ok", 5),),
        (("exit", 0),),
    ]
    started = time.monotonic()
    with WorkerPool(2) as pool:
        answered = list(run_in_batches(pool, behave, batches, timeout=2.0))
    assert time.monotonic() - started < 30
    assert sorted(task for task, _ in answered) == sorted(task for batch in batches for task in batch)
    results = dict(answered)
    assert [results[("ok", i)] for i in range(6)] == [i * 2 for i in range(6)]
    assert len({results[("pid", i)] for i in range(3)}) == 1  # one worker ran the whole batch
    assert "SIGSEGV" in results[("crash", 0)].reason
    assert "longer than 2 s" in results[("hang", 0)].reason
    assert "boom" in results[("raise", 0)].reason
    assert "exit code 3" in results[("exit", 0)].reason
    in_batch_order = [task for task, _ in answered if task[0] == "pid"]
    assert in_batch_order == [("pid", 0), ("pid", 1), ("pid", 2)]


@pytest.mark.e2e
def test_a_worker_that_dies_while_the_caller_is_busy_costs_only_its_task():
    """The worker finishes one task, dies on the next while the caller still handles the first
    result; the tasks sent to the dead worker's pipe afterwards run on its replacement."""
    tasks = [("ok", 0), ("exit", 0), ("ok", 1), ("ok", 2)]
    results = {}
    for task, result in run_isolated(behave, tasks, workers=1, timeout=5.0):
        results[task] = result
        time.sleep(0.3)  # a slow caller: the worker is already dead when the next task is sent
    assert [results[("ok", i)] for i in range(3)] == [0, 2, 4]
    assert "exit code 3" in results[("exit", 0)].reason


@pytest.mark.e2e
def test_a_task_that_needs_more_memory_than_allowed_costs_that_task_only():
    tasks = [("hog", 300), ("ok", 1), ("hog", 40), ("grab", 4096), ("ok", 2)]
    results = dict(run_isolated(behave, tasks, workers=1, timeout=20.0, memory_limit=150 << 20))
    for task in (("hog", 300), ("grab", 4096)):
        assert isinstance(results[task], TaskFailed) and results[task].out_of_memory, task
        assert "more than the 150 MB of memory" in results[task].reason
    assert results[("hog", 40)] == 40 << 20  # within the limit
    assert results[("ok", 1)] == 2 and results[("ok", 2)] == 4


@pytest.mark.e2e
def test_cancel_stops_within_a_second():
    cancel = CancelToken()
    tasks = [("hang", i) for i in range(4)]
    results = run_isolated(behave, tasks, workers=2, timeout=100, cancel=cancel)
    started = time.monotonic()
    import threading

    threading.Timer(0.5, cancel.cancel).start()
    with pytest.raises(JobCancelled):
        list(results)
    assert time.monotonic() - started < 2.0


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        list(run_isolated(behave, [("ok", 1)], workers=0, timeout=1))
    with pytest.raises(ValueError):
        list(run_isolated(behave, [("ok", 1)], workers=1, timeout=0))
    with pytest.raises(ValueError):
        list(run_isolated(behave, [("ok", 1)], workers=1, timeout=1, memory_limit=0))


def test_records_sent_to_and_from_workers_survive_pickling():
    import pickle

    from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
    from neardup_gui.core.models import Status
    from neardup_gui.core.scan import ExtractTask, FileFailure

    scheme = Scheme.current()
    records = [
        scheme,
        ExtractTask("/tmp/a.txt", "text", b"\x01" * 16, scheme, 4096),
        FileFailure(Status.UNREADABLE, "Permission denied"),
        fingerprint_bytes("text", b"Twelve words of plain text make a small but real document here.", scheme),
    ]
    for record in records:
        assert pickle.loads(pickle.dumps(record)) == record


@pytest.mark.e2e
def test_a_task_that_returns_nothing_ends_as_any_other():
    """A result of None is a result: the run ends with every task (it once waited for ever on one)."""
    with WorkerPool(2) as pool:
        got = list(pool.run(behave, [("nothing", k) for k in range(5)] + [("double", 4)], timeout=20))
    assert sorted(((task, outcome) for task, outcome in got), key=repr) == [
        (("double", 4), 8),
        *((("nothing", k), None) for k in range(5)),
    ]
