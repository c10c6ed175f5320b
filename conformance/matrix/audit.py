"""`conformance matrix audit MATRIX.json`: every failure group's library call run, each in a fresh process, its
answer held to what the cell reports.

A group of a matrix document carries ``call`` (implementations.Library.call): a short program calling the
library on the group's smallest input as a user would, printing the answer as one JSON object. The audit runs
each (Python with this interpreter, a shell line from the project's root) and compares the answer with the
group's: the value at the reported difference's pointer is the reported ``actual`` (floats within 1e-9
relative, after the input's ``decimals`` rounding, as the library's adapter rounds); a group reporting no
difference (a wrong step of a multi-request case) holds where the answer differs from the contract's; a group
reporting a crash ("raised NAME", a server error of an in-process library) holds where the call raises NAME. A group
without a call, a call that fails or prints no JSON object, or an answer other than the reported one is a
problem. Exit 0 when every call gives what the cells report, 1 otherwise, 2 on usage errors.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CALL_SECONDS = 120.0
REL_TOL = 1e-9
ROUNDED = ("bleu", "brevity_penalty")  # the fields ``decimals`` rounds


def run_call(call: dict) -> tuple[dict | None, str]:
    """(the answer the call prints, "") or (None, why not)."""
    # the code goes in on stdin: a call on 50,000 tokens is longer than one argument may be (128 KiB on Linux)
    command = [sys.executable, "-"] if call.get("language") == "python" else ["bash", "-s"]
    # a shell line's python3 is this interpreter, the one the libraries are installed for
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    try:
        finished = subprocess.run(
            command,
            input=call["code"],
            capture_output=True,
            text=True,
            timeout=CALL_SECONDS,
            cwd=ROOT,
            env={**os.environ, "PATH": path},
        )
    except subprocess.TimeoutExpired:
        return None, f"the call ran longer than {CALL_SECONDS:.0f} s"
    lines = finished.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    if finished.returncode != 0 or not isinstance(answer, dict):
        return None, f"the call exited {finished.returncode} without a JSON object: {finished.stderr.strip()[-300:]}"
    return answer, ""


def at_pointer(value: Any, pointer: str) -> tuple[bool, Any]:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False, None
    return True, value


def rounded(payload: Any, pointer: str, value: Any) -> Any:
    from oracle.jsnumber import round_to_fixed

    digits = payload.get("decimals") if isinstance(payload, dict) else None
    field = pointer.split("/")[1] if pointer.count("/") else ""
    if isinstance(digits, int) and field in ROUNDED and isinstance(value, float) and math.isfinite(value):
        return round_to_fixed(value, digits)
    return value


def equal(answer: Any, reported: Any) -> bool:
    if isinstance(answer, bool) or isinstance(reported, bool):
        return answer is reported
    if isinstance(answer, (int, float)) and isinstance(reported, (int, float)):
        return math.isclose(answer, reported, rel_tol=REL_TOL, abs_tol=0.0)
    if isinstance(answer, dict) and isinstance(reported, dict):  # the call's keys (a segment's score, not its index)
        return all(key in reported and equal(value, reported[key]) for key, value in answer.items())
    if isinstance(answer, list) and isinstance(reported, list):
        return len(answer) == len(reported) and all(map(equal, answer, reported))
    return answer == reported


def differs_from_contract(tool: str, payload: Any, answer: dict) -> bool:
    import oracle

    tool_id, _, version = tool.partition("@")
    expected = oracle.execute(tool_id, version, payload)
    return any(
        not equal(rounded(payload, f"/{key}", value), expected[key]) for key, value in answer.items() if key in expected
    )


def reported_exception(group: dict) -> str:
    """The exception a group reports its library raised on a valid input ("ZeroDivisionError": a server error of an
    in-process library, "raised NAME"), or ""."""
    actual = (group.get("difference") or {}).get("actual")
    fault = actual.get("server_error", "") if isinstance(actual, dict) else ""
    return fault.removeprefix("raised ").strip() if isinstance(fault, str) and fault.startswith("raised ") else ""


def audit_group(cell: dict, group: dict) -> str:
    """ "" when the call gives what the group reports, else the problem."""
    call = group.get("call")
    if not call:
        return "no call"
    answer, problem = run_call(call)
    raised = reported_exception(group)
    if raised:  # a crash: the call must raise the same exception (a traceback's last line starts with its name)
        said = problem.strip().splitlines()[-1] if answer is None and problem.strip() else ""
        if said.split(":")[0].strip() == raised:
            return ""
        return f"the cell reports {raised} raised, the call {'answers' if answer is not None else 'fails'}: {said}"
    if answer is None:
        return problem
    payload, difference = group.get("smallest"), group.get("difference")
    if isinstance(difference, dict) and difference.get("pointer"):
        pointer = difference["pointer"]
        found, value = at_pointer(answer, pointer)
        if not found:
            return f"the call's answer has no {pointer}"
        value = rounded(payload, pointer, value)
        if not equal(value, difference.get("actual")):
            return f"the library answers {value!r} at {pointer}, the cell reports {difference.get('actual')!r}"
        return ""
    if not differs_from_contract(cell["tool"], payload, answer):
        return "the library answers the contract's output, the cell reports a failure"
    return ""


def audit(document: dict) -> list[str]:
    """One line per group whose call does not give what its cell reports."""
    problems = []
    for cell in document.get("cells", []):
        for group in cell.get("failure_groups", []):
            problem = audit_group(cell, group)
            if problem:
                problems.append(f"{cell['implementation']} x {cell['tool']}: {group.get('title')}: {problem}")
    return problems


def run(path: str) -> int:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"conformance matrix audit: {path}: {exc}", file=sys.stderr)
        return 2
    groups = sum(len(cell.get("failure_groups", [])) for cell in document.get("cells", []))
    problems = audit(document)
    for problem in problems:
        print(problem)
    print(f"audited {groups} failure group(s): " + (f"{len(problems)} problem(s)" if problems else "every call agrees"))
    return 1 if problems else 0
