"""The ``jsonl:`` target: one process per worker, one request line and one answer line per case.

Runs against the project's own line-protocol implementation (``python -m
conformance.jsonl_oracle``) must pass; runs against the faulty implementation below (the
oracle until it misbehaves in one chosen way) must end with the exit code that says what
happened, each bad exchange reported as a transport error naming its cause, and no process
of the command left behind.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import textwrap
import time
from pathlib import Path

import pytest

import conformance
from conformance.cli import main
from conformance.targets import make_target
from conformance.targets.jsonl import answer_problem, request_line

PYTHON = shlex.quote(sys.executable)
ORACLE_LINES = f"jsonl:{PYTHON} -m conformance.jsonl_oracle"
BP, VERSION = "bleu-brevity-penalty", "1.0.0"
# The contract's first example of bleu-corpus-compute: a perfect match, bleu 1.
BLEU = "bleu-corpus-compute"
EXAMPLE = {"hypotheses": [["this", "is", "a", "test"]], "references": [[["this", "is", "a", "test"]]]}
JS_EXAMPLE = Path(conformance.__file__).resolve().parent / "schemas" / "examples" / "jsonl-example.mjs"
TARGETS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "targets.md"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")

# The oracle behind the line protocol, until it misbehaves: argv is MODE AFTER SCOPE. It misbehaves
# from the request after the AFTER-th one, counted in this process (SCOPE "process") or over every
# process of the run (SCOPE "run", counted in a file). Every process it starts (itself and a
# `sleep` child that must not outlive the run) writes its pid to the STATE directory.
FAULTY = """
    import json, os, subprocess, sys, time
    from conformance.jsonl_oracle import answer

    mode, after, scope = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    state = os.environ["JSONL_STATE"]
    child = subprocess.Popen(["sleep", "300"])
    for pid in (os.getpid(), child.pid):
        open(os.path.join(state, f"pid-{pid}"), "w").close()
    out, seen = sys.stdout.buffer, 0
    for line in sys.stdin.buffer:
        seen += 1
        if scope == "run":
            with open(os.path.join(state, "requests"), "a") as log:
                log.write("x")
            seen = os.path.getsize(os.path.join(state, "requests"))
        reply = answer(line)
        if mode == "noisy":  # 2 MB of logs for every request: far past any pipe's buffer
            sys.stderr.buffer.write(b"debug: still computing the brevity penalty\\n" * 48_000)
            sys.stderr.buffer.flush()
        if seen > after:
            if mode == "hang":
                time.sleep(300)
            if mode == "crash":
                sys.stderr.write("simulated crash in the implementation\\n")
                sys.stderr.flush()
                os._exit(1)
            if mode == "garbage":
                out.write(b"BLEU = 42\\n")
                out.flush()
                continue
            if mode == "wrong-id":
                reply["id"] += 1
            if mode == "oversized":
                reply = {"id": reply["id"], "result": {"padding": "x" * 300_000}}
            if mode == "no-message":
                reply = {"id": reply["id"], "error": {"code": "invalid_input"}}
        out.write(json.dumps(reply).encode("utf-8") + b"\\n")
        out.flush()
"""


@pytest.fixture
def faulty(tmp_path):
    """A function making the faulty implementation's target value for a mode; its pids are in tmp_path/state."""
    (tmp_path / "faulty_jsonl.py").write_text(textwrap.dedent(FAULTY), encoding="utf-8")
    (tmp_path / "state").mkdir()

    def spec(mode: str, after: int = 0, scope: str = "process") -> str:
        return f"jsonl:{PYTHON} {shlex.quote(str(tmp_path / 'faulty_jsonl.py'))} {mode} {after} {scope}"

    return spec


@pytest.fixture
def run(tmp_path, monkeypatch, capfd):
    """``conformance run ARGS`` in this process: (exit code, console output, report.json)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JSONL_STATE", str(tmp_path / "state"))

    def run_(*args: str) -> tuple[int, str, dict]:
        code = main(["run", *args, "--report-dir", "out"])
        out, err = capfd.readouterr()
        return code, out + err, json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))

    return run_


def started_pids(tmp_path: Path) -> list[int]:
    return [int(path.name.removeprefix("pid-")) for path in (tmp_path / "state").glob("pid-*")]


def assert_none_left(pids: list[int]) -> None:
    """Every process the command started has ended (the harness reaps the command itself; a child of
    it, orphaned by the kill, is a zombie until init reaps it: ended, holding nothing)."""
    deadline = time.monotonic() + 5
    running = pids
    while running and time.monotonic() < deadline:
        running = [pid for pid in pids if _running(pid)]
        time.sleep(0.02)
    assert not running, f"left running: {running}"


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def errored_details(record: dict) -> list[str]:
    return [result["response"]["detail"] for result in record["results"] if result["outcome"] == "errored"]


# ---------------------------------------------------------------- the project's own implementation


def test_the_oracle_behind_the_line_protocol_passes_a_quick_run_with_two_workers(run):
    code, output, record = run(
        "--target", ORACLE_LINES, "--tools", BP, "--profile", "quick", "--seed", "3", "--workers", "2"
    )
    assert code == 0, output
    assert record["totals"]["failed"] == record["totals"]["errored"] == 0
    assert record["totals"]["passed"] > 100
    assert record["properties"] and all(prop["examples"] > 0 for prop in record["properties"])


@pytest.mark.slow
def test_the_oracle_behind_the_line_protocol_passes_a_quick_run_of_every_tool(run):
    code, output, record = run("--target", ORACLE_LINES, "--profile", "quick", "--workers", "2")
    assert code == 0, output
    assert record["totals"]["failed"] == record["totals"]["errored"] == 0


def test_the_docs_show_the_javascript_example_as_it_ships():
    """docs/targets.md (the line protocol) quotes the example verbatim in a ```js block."""
    assert f"```js\n{JS_EXAMPLE.read_text(encoding='utf-8')}```\n" in TARGETS_PAGE.read_text(encoding="utf-8")


@pytest.mark.slow  # Node.js
@needs_node
def test_the_javascript_example_passes_for_the_tool_it_implements(run):
    """As its first line and docs/targets.md say: no --tools, the other tools not served."""
    code, output, record = run(
        "--target", f"jsonl:node {shlex.quote(str(JS_EXAMPLE))}", "--profile", "quick", "--seed", "4"
    )
    assert code == 0, output
    assert record["totals"]["failed"] == record["totals"]["errored"] == 0
    assert record["totals"]["passed"] > 100
    assert len(record["header"]["not_served"]) == 7 and f"{BP}@1.0.0" not in record["header"]["not_served"]


@needs_node
def test_the_javascript_example_answers_not_found_for_other_tools():
    target = make_target(f"jsonl:node {shlex.quote(str(JS_EXAMPLE))}")
    try:
        response = target.call(BLEU, VERSION, EXAMPLE)
    finally:
        target.close()
    assert (response.kind, response.error_code) == ("rejection", "not_found")


# ---------------------------------------------------------------- faulty implementations


def test_a_command_that_hangs_once_is_restarted_and_the_case_sent_again(run, faulty, tmp_path):
    started = time.monotonic()
    code, output, record = run(
        "--target", faulty("hang", after=1), "--tools", BP, "--fixtures-only", "-k", "examples", "--timeout", "0.5"
    )
    # each hung request, sent once more (engine/health.py), is answered by the new process: the hangs were
    # the transport's, not the inputs' (none came back), so every case is judged, and passes
    assert code == 0, output
    assert time.monotonic() - started < 30
    assert record["totals"]["passed"] == len(record["results"]) >= 1
    assert record["header"]["breaker"]["transport_errors"] == len(record["results"])
    assert_none_left(started_pids(tmp_path))


def test_a_command_that_keeps_crashing_trips_the_circuit_breaker(run, faulty, tmp_path):
    code, output, record = run(
        "--target", faulty("crash", after=3, scope="run"), "--tools", BP, "--fixtures-only", "--timeout", "5"
    )
    assert code == 3, output
    reason = record["unhealthy_reason"]
    assert "5 transport errors in a row" in reason
    assert "exited with status 1 before answering" in reason
    assert "simulated crash in the implementation" in reason, "the end of stderr explains the crash"
    # the preflight took the first; each crash is sent again and the contract's example asked (3 calls)
    assert record["totals"]["passed"] == 2 and record["totals"]["errored"] == 1
    assert record["totals"]["skipped"] > 100
    assert "could not conclude" in output
    assert_none_left(started_pids(tmp_path))


def test_a_bad_answer_line_once_is_sent_again_to_a_fresh_process(run, faulty, tmp_path):
    code, output, record = run(
        "--target", faulty("garbage", after=1), "--tools", BP, "--fixtures-only", "-k", "examples"
    )
    # each bad line, the request sent once more (engine/health.py), is followed by a good answer from the
    # new process: the bad line shifted nothing, and did not come back, so every case passes
    assert code == 0, output
    assert record["totals"]["passed"] == len(record["results"]) >= 1
    assert record["header"]["breaker"]["transport_errors"] == len(record["results"])
    assert_none_left(started_pids(tmp_path))


def test_megabytes_of_standard_error_never_block_the_command_nor_a_worker(run, faulty, tmp_path):
    code, output, record = run(
        "--target", faulty("noisy"), "--tools", BP, "--fixtures-only", "-k", "examples", "--workers", "2"
    )
    assert code == 0, output
    assert record["totals"]["passed"] == len(record["results"]) >= 3
    commands = started_pids(tmp_path)
    # each process recorded itself and its child: one process at least (on a busy machine the two workers'
    # calls may never overlap), at most the preflight's and one per worker, or one more
    assert 2 <= len(commands) <= 6 and len(commands) % 2 == 0, commands
    assert_none_left(commands)


def test_a_command_that_exits_at_once_cannot_be_judged(run, tmp_path):
    started = time.monotonic()
    code, output, record = run("--target", "jsonl:echo 'cannot load the model' >&2; exit 3", "--tools", BP)
    assert code == 3, output
    assert time.monotonic() - started < 30
    reason = record["unhealthy_reason"]
    assert "preflight" in reason and "exited with status 3 before answering" in reason
    assert "cannot load the model" in reason
    assert record["totals"]["passed"] == 0


# ---------------------------------------------------------------- one exchange, at the target


def test_an_oversized_answer_line_is_cut_at_the_cap(faulty, tmp_path, monkeypatch):
    monkeypatch.setenv("JSONL_STATE", str(tmp_path / "state"))
    target = make_target(faulty("oversized", after=1), max_bytes=100_000)
    try:
        assert target.call(BLEU, VERSION, EXAMPLE).kind == "result"
        response = target.call(BLEU, VERSION, EXAMPLE)
        assert response.kind == "transport_error"
        assert "answer line longer than 100000 bytes" in response.detail
        assert len(response.raw) < 1000, "reports carry an excerpt, not the line"
        assert target.call(BLEU, VERSION, EXAMPLE).kind == "result", "a fresh process answers the next case"
        assert target.started == 2
    finally:
        target.close()
    assert_none_left(started_pids(tmp_path))


@pytest.mark.parametrize(
    "mode, detail",
    [
        ("wrong-id", "the answer carries id 3 where request 2 was sent"),
        ("no-message", "the error answer breaks the protocol: /error/message: is missing"),
        ("crash", "the command exited with status 1 before answering; stderr: simulated crash in the implementation"),
    ],
)
def test_a_bad_exchange_is_a_transport_error_and_a_fresh_process_answers_the_next(
    faulty, tmp_path, monkeypatch, mode, detail
):
    monkeypatch.setenv("JSONL_STATE", str(tmp_path / "state"))
    target = make_target(faulty(mode, after=1))
    try:
        assert target.call(BLEU, VERSION, EXAMPLE).kind == "result"
        response = target.call(BLEU, VERSION, EXAMPLE)
        assert response.kind == "transport_error" and detail in response.detail, response.detail
        assert target.call(BLEU, VERSION, EXAMPLE).kind == "result"
        assert target.started == 2
    finally:
        target.close()
    assert_none_left(started_pids(tmp_path))


def test_requests_are_single_lines_whatever_the_input_holds():
    payload = {"hypotheses": ["a\u2028b\u2029c\u0085d\ne\r"], "references": ["\ud800"]}
    line = request_line(7, "chrf-compute", VERSION, payload)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    text = line.decode("ascii" if b"\\ud800" in line else "utf-8")
    assert text.splitlines() == [text.rstrip("\n")], "no Unicode line break inside the request"
    assert json.loads(text) == {"id": 7, "tool": "chrf-compute", "version": VERSION, "input": payload}


@pytest.mark.parametrize(
    "answer, problem",
    [
        ({"id": 1, "result": {"bleu": 1}}, None),
        ({"id": 1, "error": {"code": "invalid_input", "message": "hypotheses: missing"}}, None),
        ([1], "not an object"),
        ({"id": 1}, 'neither "result" nor "error"'),
        ({"result": {}}, "/id: is missing"),
        ({"id": "1", "result": {}}, "/id: expected an integer, got a string"),
        ({"id": 1, "result": [1]}, "/result: expected an object, got an array"),
        ({"id": 1, "error": "invalid_input"}, "/error: expected an object, got a string"),
        ({"id": 1, "error": {"code": "", "message": "m"}}, "/error/code"),
        ({"id": 1, "result": {}, "error": {"code": "x", "message": "m"}}, "unknown key(s) result"),
    ],
)
def test_every_answer_line_is_held_to_the_published_shape(answer, problem):
    found = answer_problem(answer)
    assert (found is None) if problem is None else (found is not None and problem in found), found


def test_the_reproduce_line_sends_the_request_to_the_command():
    import subprocess

    target = make_target(ORACLE_LINES)
    line = target.reproduce_hint(BLEU, VERSION, EXAMPLE)
    out = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=60).stdout
    assert json.loads(out)["id"] == 1 and json.loads(out)["result"]["bleu"] == 1


def test_a_target_never_closed_still_ends_its_processes(faulty, tmp_path, monkeypatch):
    import gc

    monkeypatch.setenv("JSONL_STATE", str(tmp_path / "state"))
    target = make_target(faulty("none"))
    assert target.call(BLEU, VERSION, EXAMPLE).kind == "result"
    del target  # the harness failed before its close(): the finalizer (also run at exit) ends them
    gc.collect()
    assert_none_left(started_pids(tmp_path))
