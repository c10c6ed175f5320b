"""A Node.js server of tools/ started for a test: its own process group (the oracle it starts goes with
it), on a free loopback port, until the block ends; it prints "listening on URL" once it listens."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

START_SECONDS = 30


@contextlib.contextmanager
def node_server(script: Path, arguments: tuple[str, ...], log: Path) -> Iterator[str]:
    """``node SCRIPT ARGUMENTS`` (PYTHON set to this interpreter), for the block: the URL it listens on."""
    with log.open("wb") as errors:
        process = subprocess.Popen(
            ["node", str(script), *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
            env={**os.environ, "PYTHON": sys.executable},
            start_new_session=True,
        )
    try:
        line = b""
        deadline = time.monotonic() + START_SECONDS
        while not line.endswith(b"\n") and time.monotonic() < deadline and process.poll() is None:
            if select.select([process.stdout], [], [], 0.1)[0]:
                line += os.read(process.stdout.fileno(), 4096)
        assert line.startswith(b"listening on "), (line, log.read_text(errors="replace")[-2000:])
        yield line.decode().split()[-1]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
        process.stdout.close()
