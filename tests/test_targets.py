"""Targets turn every behaviour of an implementation into a TargetResponse, never an exception."""

from __future__ import annotations

import shlex
import sys
import time

import pytest

from conformance.targets import TargetSpecError, make_target
from conformance.targets.base import read_envelope, read_error_code
from conformance.targets.command import CommandTarget

TOOL, VERSION = "bleu-corpus-compute", "1.0.0"
# The contract's first example: a perfect match, bleu 1.
EXAMPLE = {"hypotheses": [["this", "is", "a", "test"]], "references": [[["this", "is", "a", "test"]]]}
PYTHON = shlex.quote(sys.executable)


def python_cmd(code: str) -> str:
    """A cmd: target running a small Python program (the program's text is shell-quoted)."""
    return f"cmd:{PYTHON} -c {shlex.quote(code)}"


def test_oracle_target_answers_and_rejects():
    target = make_target("oracle")
    answer = target.call(TOOL, VERSION, EXAMPLE)
    assert answer.kind == "result" and answer.result["bleu"] == 1
    rejection = target.call(TOOL, VERSION, {"hypotheses": []})
    assert rejection.kind == "rejection" and rejection.error_code == "invalid_input"
    assert target.reproduce_hint(TOOL, VERSION, EXAMPLE) == ""


def test_python_target_classifies_exceptions(tmp_path, monkeypatch):
    (tmp_path / "sample_impl.py").write_text(
        "class Rejected(Exception):\n"
        "    code = 'limit_exceeded'\n"
        "def execute(tool_id, version, payload):\n"
        "    payload['hypotheses'].clear()  # a careless implementation mutates its input\n"
        "    if tool_id == 'reject':\n"
        "        raise Rejected('too big')\n"
        "    if tool_id == 'crash':\n"
        "        raise KeyError('boom')\n"
        "    return {'echo': tool_id}\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    target = make_target("python:sample_impl")
    payload = {"hypotheses": [["a"]]}
    assert target.call("x", VERSION, payload).result == {"echo": "x"}
    assert payload == {"hypotheses": [["a"]]}, "the case's input must not be mutated by the target"
    rejected = target.call("reject", VERSION, payload)
    assert (rejected.kind, rejected.error_code) == ("rejection", "limit_exceeded")
    crashed = target.call("crash", VERSION, payload)
    assert crashed.kind == "transport_error" and "KeyError: 'boom'" in crashed.detail


@pytest.mark.parametrize(
    "spec, message",
    [
        ("python:no_such_module_anywhere", "cannot import"),
        ("python:json", "no execute"),
        ("python:", "needs a module"),
        ("cmd:", "needs a command"),
        ("ftp://example.org", "unknown target"),
        ("jsonl:", "needs a command"),
    ],
)
def test_unusable_target_specs_are_usage_errors(spec, message):
    with pytest.raises(TargetSpecError, match=message):
        make_target(spec)


def test_cmd_target_runs_the_exec_command_protocol():
    target = make_target(f"cmd:{PYTHON} -m conformance exec {{tool}}@{{version}}")
    answer = target.call(TOOL, VERSION, EXAMPLE)
    assert answer.kind == "result" and answer.result["matches"] == [4, 3, 2, 1]
    rejection = target.call(TOOL, VERSION, {"hypotheses": [["a"]]})
    assert (rejection.kind, rejection.error_code, rejection.status) == ("rejection", "invalid_input", 1)


def test_cmd_target_substitutes_tool_and_version_shell_quoted():
    target = CommandTarget("cmd:echo {tool} {version}")
    assert target.command_line("a b;rm", "1.0.0") == "echo 'a b;rm' 1.0.0"


def test_cmd_target_lone_surrogates_travel_as_escapes():
    echo = python_cmd("import sys, json; print(json.dumps({'result': json.loads(sys.stdin.read())}))")
    payload = {"hypotheses": ["a\ud800"], "references": ["a"]}
    answer = make_target(echo).call("chrf-plus-plus-compute", VERSION, payload)
    assert answer.kind == "result" and answer.result == payload


@pytest.mark.parametrize(
    "code, detail",
    [
        ("print('hello')", "not JSON"),
        ("pass", "empty output"),
        ("print('[1, 2]')", "neither"),
        ("import os; os.kill(os.getpid(), 9)", "exit status 137"),  # the shell reports 128 + signal
        ("raise SystemExit(3)", "exit status 3"),
    ],
)
def test_cmd_target_garbage_is_a_transport_error(code, detail):
    response = make_target(python_cmd(code)).call(TOOL, VERSION, EXAMPLE)
    assert response.kind == "transport_error"
    assert detail in response.detail


def test_cmd_target_error_body_with_any_exit_status_is_a_rejection():
    code = 'import sys; print(\'{"error": "limit_exceeded"}\'); sys.exit(0)'
    response = make_target(python_cmd(code)).call(TOOL, VERSION, EXAMPLE)
    assert (response.kind, response.error_code) == ("rejection", "limit_exceeded")


def test_cmd_target_missing_command_is_a_transport_error():
    response = make_target("cmd:no-such-command-for-conformance-tests").call(TOOL, VERSION, EXAMPLE)
    assert response.kind == "transport_error" and "not found" in response.detail


def test_cmd_target_timeout_kills_the_process_group():
    # the child shell's grandchild would keep the pipe open if only the shell were killed
    target = make_target("cmd:sleep 30 & sleep 30", timeout=0.5)
    started = time.monotonic()
    response = target.call(TOOL, VERSION, EXAMPLE)
    assert time.monotonic() - started < 5
    assert response.kind == "transport_error" and "timed out after 0.5 s" in response.detail


def test_cmd_target_flood_is_capped():
    target = make_target("cmd:yes", timeout=5, max_bytes=100_000)
    started = time.monotonic()
    response = target.call(TOOL, VERSION, EXAMPLE)
    assert time.monotonic() - started < 5
    assert response.kind == "transport_error" and "larger than 100000 bytes" in response.detail
    assert len(response.raw) < 1000, "reports carry an excerpt, not the flood"


def test_cmd_reproduce_hint_is_a_runnable_shell_line():
    import subprocess

    target = make_target(f"cmd:{PYTHON} -m conformance exec {{tool}}@{{version}}")
    line = target.reproduce_hint(TOOL, VERSION, EXAMPLE)
    out = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=60).stdout
    assert '"bleu":1' in out.replace(" ", "").replace("1.0", "1")


@pytest.mark.parametrize(
    "body, code",
    [
        ({"error": {"code": "invalid_input", "message": "x"}}, "invalid_input"),
        ({"error": "limit_exceeded"}, "limit_exceeded"),
        ({"code": "not_found"}, "not_found"),
        ({"error": {"message": "no code"}}, None),
        (["error"], None),
    ],
)
def test_error_code_read_from_common_shapes(body, code):
    assert read_error_code(body) == code


def test_unknown_target_lists_every_accepted_form():
    with pytest.raises(TargetSpecError) as raised:
        make_target("oracle2")
    assert str(raised.value) == (
        "unknown target 'oracle2': use oracle, python:MODULE, cmd:COMMAND, implementation:NAME, jsonl:COMMAND, "
        "http://BASE, https://BASE, mcp+http://HOST:PORT/PATH or mcp+https://HOST:PORT/PATH"
    )


@pytest.mark.parametrize(
    "data, cmd_kind, http_2xx_kind",
    [
        (b'{"result": 1}', "result", "result"),
        (b'{"error": "limit_exceeded"}', "rejection", "garbage"),  # over HTTP the status says "rejected"
        (b'{"result": 1, "error": "limit_exceeded"}', "rejection", "result"),
        (b'{"code": "invalid_input"}', "garbage", "garbage"),
        (b"[1, 2]", "garbage", "garbage"),
        (b" \n", "garbage", "garbage"),
        (b"BLEU = 42", "garbage", "garbage"),
    ],
)
def test_one_envelope_reading_for_both_transports(data, cmd_kind, http_2xx_kind):
    assert read_envelope(data).kind == cmd_kind
    assert read_envelope(data, error_body_rejects=False).kind == http_2xx_kind


def test_cmd_target_error_beside_result_is_a_rejection():
    code = 'print(\'{"result": 1, "error": "limit_exceeded"}\')'
    response = make_target(python_cmd(code)).call(TOOL, VERSION, EXAMPLE)
    assert (response.kind, response.error_code, response.detail) == ("rejection", "limit_exceeded", "error body")
