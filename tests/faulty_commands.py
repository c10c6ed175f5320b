"""Commands that hang now and then, as jsonl: and cmd: targets, for the breaker and SIGTERM tests.

    commands = FaultyCommands(directory)     # writes the scripts; pids and counts go to directory/state
    commands.jsonl("after", 3)               # each process answers 3 requests, then hangs (restarted: the same)
    commands.jsonl("every", 100)             # the 100th, 200th, ... request of the run hangs
    commands.jsonl("longer", 2000)           # every request line longer than 2000 bytes hangs (always)
    commands.cmd(4)                          # the 4th, 8th, ... call hangs; the others answer at once, wrongly
    commands.cmd(4, answer="oracle")         # ... the others answer with `conformance exec` (right, slower)

A hung request or call waits in a ``sleep`` child too (one that would outlive the run if nothing
ended it) and marks ``state/hung``. Every process writes its pid to ``state/pid-N``; ``pids()``
lists them and ``still_running(pids)`` those of them that have not ended within a moment.
"""

from __future__ import annotations

import contextlib
import shlex
import sys
import textwrap
import time
from pathlib import Path

PYTHON = shlex.quote(sys.executable)

# The oracle behind the line protocol, until it hangs: argv is MODE N STATE.
JSONL_SCRIPT = """
    import json, os, subprocess, sys, time
    from conformance.jsonl_oracle import answer

    mode, n, state = sys.argv[1], int(sys.argv[2]), sys.argv[3]

    def mark(pid):
        open(os.path.join(state, f"pid-{pid}"), "w").close()

    mark(os.getpid())
    seen = 0
    for line in sys.stdin.buffer:
        seen += 1
        if mode == "every":
            with open(os.path.join(state, "count"), "a") as count:
                count.write("x")
            seen = os.path.getsize(os.path.join(state, "count"))
        if (mode == "after" and seen > n) or (mode == "every" and seen % n == 0) or (mode == "longer" and len(line) > n):
            mark(subprocess.Popen(["sleep", "300"]).pid)
            open(os.path.join(state, "hung"), "w").close()
            time.sleep(300)
        sys.stdout.write(json.dumps(answer(line)) + "\\n")
        sys.stdout.flush()
"""

# Run once per call with $1 $2 = tool, version; STATE, EVERY, ANSWER (wrong | oracle), PYTHON from the command.
CMD_SCRIPT = """
    n=$(( $(cat "$STATE/count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$STATE/count"
    echo $$ > "$STATE/pid-$$"
    if [ $((n % EVERY)) -eq 0 ]; then
        sleep 300 & echo $! > "$STATE/pid-$!"; touch "$STATE/hung"; wait
    fi
    if [ "$ANSWER" = oracle ]; then exec "$PYTHON" -m conformance exec "$1@$2"; fi
    cat > /dev/null
    echo '{"result": {"brevity_penalty": 0.5}}'
"""


class FaultyCommands:
    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.state = self.directory / "state"
        self.state.mkdir(parents=True, exist_ok=True)
        (self.directory / "faulty_jsonl.py").write_text(textwrap.dedent(JSONL_SCRIPT), encoding="utf-8")
        (self.directory / "faulty_cmd.sh").write_text(textwrap.dedent(CMD_SCRIPT), encoding="utf-8")

    def jsonl(self, mode: str, n: int) -> str:
        script = shlex.quote(str(self.directory / "faulty_jsonl.py"))
        return f"jsonl:{PYTHON} {script} {mode} {n} {shlex.quote(str(self.state))}"

    def cmd(self, every: int, answer: str = "wrong") -> str:
        script = shlex.quote(str(self.directory / "faulty_cmd.sh"))
        return (
            f"cmd:STATE={shlex.quote(str(self.state))} EVERY={every} ANSWER={answer} PYTHON={PYTHON} "
            f"sh {script} {{tool}} {{version}}"
        )

    @property
    def hung(self) -> bool:
        return (self.state / "hung").exists()

    def pids(self) -> list[int]:
        return [int(path.name.removeprefix("pid-")) for path in self.state.glob("pid-*")]


def running(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie has ended: it only awaits its reaper)."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


def still_running(pids: list[int], grace: float = 5.0) -> list[int]:
    """The processes of ``pids`` still running after up to ``grace`` s (a child orphaned by a kill is
    reaped by init: it takes a moment)."""
    deadline = time.monotonic() + grace
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    return [pid for pid in pids if running(pid)]
