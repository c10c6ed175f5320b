"""``-n N``: one run spread over N processes by pytest-xdist, one run record in the end.

The controller (the process the user started) runs no check and calls no target. It chooses the
seed and gives it to every process, deals the checks into N shares by expected cost
(engine/shards.py, as ``--shard`` does) and has pytest-xdist's ``loadgroup`` scheduler send each
share to one process, so a process knows from its first test which fixture cases it will judge
and sends them ``--workers`` at a time, as a one-process run does. Each process is a whole
Session of its own (target, preflight, breaker, keep-going, known failures, reproducers under
their case ids in the one report directory) and hands its report.json document back at its end
(xdist's ``workeroutput``); the controller merges them (reports/merge.py, as ``merge-reports``)
into the one record every report is rendered from.

Each process also writes its document to the run's directory (``write_document``), with its pid
from its start: a SIGTERM reaches the controller alone, which sends it on to every process
(``Controller.relay``); each ends as a one-process run does on SIGTERM (its partial report, its
target closed) and the controller, which no longer hears xdist's messages, merges the documents
found there: the partial report of the whole run, marked interrupted.

The processes share one stop file: a process whose breaker trips, or the controller after the
first failure under ``-x``, writes it, and every process reads it after each test, so a dead
target or ``-x`` ends every process, not only the one that saw it (the run ends with exit 3, its
remaining checks skipped as after a trip in one process).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

SEED = "conformance_seed"
STOP_FILE = "conformance_stop_file"
SHARES = "conformance_shares"
DOCUMENT = "conformance_document"
DIRECTORY = "conformance_directory"  # the run's directory: the stop file, each process's pid and document
CTRL_C_GRACE_SECONDS = 2.0  # a SIGINT: how long the processes may take to hand back their documents themselves
RELAY_SECONDS = 5.0  # after a relayed SIGTERM, how long the controller waits for the processes' documents
GROUP = "share-{}"  # the xdist_group of a share
EXIT_FIRST = "exitfirst"  # the stop file's stopped_by after a failure under -x


def stopped_by_scheduler(exception: BaseException) -> bool:
    """pytest-xdist's own stop of the controller (after -x's failure, or a process's Ctrl-C, which that
    process's report records): not a signal to the run."""
    from xdist.dsession import Interrupted

    return isinstance(exception, Interrupted)


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


# pytest-xdist sets workerinput (from the controller) and workeroutput (back to it) on a process's
# Config at run time; pytest's Config declares neither, so each is read here alone.
def worker_input(config: pytest.Config) -> dict[str, Any]:
    return config.workerinput  # type: ignore[attr-defined]  # set by pytest-xdist, undeclared by pytest


def worker_output(config: pytest.Config) -> dict[str, Any]:
    return config.workeroutput  # type: ignore[attr-defined]  # set by pytest-xdist, undeclared by pytest


def is_controller(config: pytest.Config) -> bool:
    """pytest-xdist runs this session's tests in other processes (-n N with N >= 1)."""
    return (
        not is_worker(config)
        and bool(getattr(config.option, "numprocesses", None))
        and getattr(config.option, "dist", "no") != "no"
    )


def processes(config: pytest.Config) -> int:
    return int(worker_input(config)["workercount"]) if is_worker(config) else int(config.option.numprocesses)


def worker_seed(config: pytest.Config) -> int | None:
    """The seed the controller chose (None outside a process of -n)."""
    return worker_input(config).get(SEED) if is_worker(config) else None


def group_mark(share: int) -> pytest.MarkDecorator:
    return pytest.mark.xdist_group(GROUP.format(share))


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, whoever reads it meanwhile (another process)."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


class StopFile:
    """The file every process of a run reads after each test: why the run stops (JSON), if it does."""

    def __init__(self, path: str):
        self.path = Path(path)

    def stop(self, reason: str, stopped_by: str) -> None:
        if not self.path.exists():
            write_whole(self.path, json.dumps({"reason": reason, "stopped_by": stopped_by}))

    def read(self) -> dict:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}


class Controller:
    """The controller's side of a run spread over processes (registered as a plugin)."""

    def __init__(self, config: pytest.Config, seed: int):
        config.option.dist = "loadgroup"  # each share to one process (see the module docstring)
        self.seed = seed
        self.directory = tempfile.mkdtemp(prefix="conformance-run-")
        self.stop_file = StopFile(str(Path(self.directory) / "stop"))
        self.exit_first = bool(config.getoption("maxfail"))
        self.documents: dict[str, dict] = {}
        self.lost: list[str] = []  # processes that ended without their report

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node) -> None:
        node.workerinput[SEED] = self.seed
        node.workerinput[STOP_FILE] = str(self.stop_file.path)
        node.workerinput[DIRECTORY] = self.directory

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        name = node.gateway.id
        output = getattr(node, "workeroutput", {}) or {}
        if DOCUMENT in output:
            self.documents[name] = json.loads(output[DOCUMENT])
        elif self._document_file(name).exists():
            self.documents[name] = json.loads(self._document_file(name).read_text(encoding="utf-8"))
        else:
            self.lost.append(f"process {name} ended without its report" + (f": {error}" if error else ""))

    def _document_file(self, name: str) -> Path:
        return Path(self.directory) / f"document-{name}.json"

    def relay(self, signum: int = signal.SIGTERM, grace_seconds: float = 0.0) -> None:
        """Send the signal on to every process still running, wait (at most RELAY_SECONDS) for each one's
        document, and take the documents written: the controller's loop, which hears xdist, has ended.

        ``grace_seconds``: first wait that long for the documents of processes that heard the stop
        themselves (a terminal's Ctrl-C reaches the whole process group), and signal only the others."""
        started = {path.name.removeprefix("pid-"): int(path.read_text()) for path in Path(self.directory).glob("pid-*")}
        self._wait_for([name for name in started if name not in self.documents], grace_seconds)
        waiting = [name for name in started if name not in self.documents and not self._document_file(name).exists()]
        for name in waiting:
            try:
                os.kill(started[name], signum)
            except OSError:  # it has ended already
                pass
        self._wait_for(waiting, RELAY_SECONDS)
        for name in started:
            if name in self.documents:
                continue
            if self._document_file(name).exists():
                self.documents[name] = json.loads(self._document_file(name).read_text(encoding="utf-8"))
            else:
                self.lost.append(
                    f"process {name} did not write its report within {RELAY_SECONDS:.0f} s of {signal.Signals(signum).name}"
                )

    def _wait_for(self, names: list[str], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while any(not self._document_file(name).exists() for name in names) and time.monotonic() < deadline:
            time.sleep(0.05)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.exit_first and report.failed:
            self.stop_file.stop(EXIT_FIRST, EXIT_FIRST)

    def worker_documents(self) -> list[dict]:
        return [self.documents[name] for name in sorted(self.documents, key=lambda found: (len(found), found))]

    def close(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def announce(config: pytest.Config) -> None:
    """A process of -n, at its start: its pid in the run's directory (for ``Controller.relay``)."""
    (Path(worker_input(config)[DIRECTORY]) / f"pid-{worker_input(config)['workerid']}").write_text(str(os.getpid()))


def write_document(config: pytest.Config, text: str) -> None:
    """A process of -n, at its end: its report.json document beside the pids, whole or absent."""
    write_whole(Path(worker_input(config)[DIRECTORY]) / f"document-{worker_input(config)['workerid']}.json", text)


def after_test(config: pytest.Config, session: pytest.Session, health) -> None:
    """In a process of -n, after each test: tell the others of a trip, and stop when told to
    (a trip elsewhere trips this process's breaker with the same reason: its remaining checks are skipped)."""
    stop_file = StopFile(worker_input(config)[STOP_FILE])
    if health.unhealthy:
        stop_file.stop(health.reason, health.stopped_by)
        return
    stop = stop_file.read()
    if stop.get("stopped_by") == EXIT_FIRST:
        session.shouldstop = EXIT_FIRST
    elif stop.get("reason"):
        health.trip(stop["reason"], stop.get("stopped_by") or "breaker")
