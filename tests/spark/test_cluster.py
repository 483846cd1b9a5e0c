"""The job on a real Spark standalone cluster, not only in local mode: a master and two workers started here
with pyspark's own spark-class, the job submitted as docs/spark.md tells a cluster user (spark-submit, the
package shipped to the executors with --py-files as a zip of its wheel), executors whose Python has the
dependencies but not neardup. Its result equals the job's in local[2] on the same corpus."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import venv_borrowing_dependencies

pytestmark = pytest.mark.e2e  # three JVMs (a master, two workers) and the driver's

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _running(cmd: list[str], log: Path, ready: str, env: dict[str, str], timeout: float = 90) -> Iterator[None]:
    """A Spark daemon in the foreground, until its log says ``ready``; stopped, with its children, after."""
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while ready not in log.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{cmd[1]} did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.3)
        yield
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _shipped_package(tmp: Path) -> Path:
    """neardup as docs/spark.md ships it: its wheel (built from a copy of the sources, so nothing is written
    into the repository), renamed to .zip, which Spark puts on the executors' path (it leaves a .whl off)."""
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(REPO / name, src / name)
    for folder in ("neardup_gui", "resources"):
        shutil.copytree(REPO / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(src)],
        check=True,
        capture_output=True,
    )
    [wheel] = dist.glob("neardup-*.whl")
    return Path(shutil.copy(wheel, tmp / "neardup.zip"))


def _python_without_neardup(tmp: Path) -> Path:
    """The executors' Python: the test environment's packages, but not neardup."""
    python, _site = venv_borrowing_dependencies(tmp / "executors")
    probe = subprocess.run([str(python), "-c", "import numpy, jieba, pyspark; import neardup_gui"], cwd=tmp)
    assert probe.returncode != 0, "the executors' Python must not find neardup but in what is shipped"
    return python


def test_the_job_runs_on_a_standalone_cluster_with_the_package_shipped(corpus, corpus_result, tmp_path):
    import pyspark

    spark_home = Path(pyspark.__file__).parent
    package = _shipped_package(tmp_path)
    executors_python = _python_without_neardup(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_", "SPARK_"))}
    env.update(SPARK_HOME=str(spark_home), SPARK_LOCAL_IP="127.0.0.1", PYTHONPATH="")
    port = _free_port()
    master = f"spark://127.0.0.1:{port}"
    daemon = [str(spark_home / "bin" / "spark-class")]
    with _running(
        [*daemon, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port)]
        + ["--webui-port", str(_free_port())],
        tmp_path / "master.log",
        "I have been elected leader",
        env,
    ):
        workers = [
            _running(
                [*daemon, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1"]
                + ["--memory", "1g", "--work-dir", str(tmp_path / f"work{n}"), "--webui-port", str(_free_port())]
                + [master],
                tmp_path / f"worker{n}.log",
                "Successfully registered with master",
                env,
            )
            for n in range(2)
        ]
        with workers[0], workers[1]:
            out = tmp_path / "result"
            submitted = subprocess.run(
                [str(spark_home / "bin" / "spark-submit"), "--master", master, "--py-files", str(package)]
                + ["--conf", f"spark.pyspark.python={executors_python}"]
                + ["--conf", f"spark.pyspark.driver.python={sys.executable}"]
                + ["--conf", "spark.executor.memory=768m", "--conf", "spark.ui.enabled=false"]
                + [str(REPO / "neardup_gui" / "spark" / "submit.py"), str(corpus), "--out", str(out)],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp_path,
                timeout=600,
            )
            assert submitted.returncode == 0, submitted.stderr[-4000:]
            # the executors ran: each worker started an executor for the application
            for n in range(2):
                assert list((tmp_path / f"work{n}").glob("app-*/*/stderr")), f"worker {n} ran no executor"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    local = json.loads((corpus_result / "report.json").read_text(encoding="utf-8"))
    assert report["documents"] == local["documents"]
    assert len(report["groups"]) > 40
    assert report["groups"] == local["groups"]
    assert report["pairs"] == local["pairs"]
    job = json.loads((out / "job.json").read_text(encoding="utf-8"))
    assert job["counts"] == json.loads((corpus_result / "job.json").read_text(encoding="utf-8"))["counts"]
    # what it found, said in one line (the driver's Python writes to spark-submit's output, both streams in one)
    said = [line for line in submitted.stdout.splitlines() if line.startswith("neardup: ")]
    assert len(said) == 1 and f"{job['counts']['groups']} groups" in said[0], submitted.stdout[-2000:]
