"""`conformance run` end to end: verdicts, exit codes, reproducers, replay, seeds, health.

Each test runs the real command in a subprocess (as a user would), on a small slice of
the suite (one tool, the quick profile, or fixtures only) to keep the project's test run
fast. The faulty implementations are written out below, each with the bug it carries.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import oracle

PYTHON = shlex.quote(sys.executable)
BLEU = "bleu-corpus-compute"

# Brevity penalty with the ratio inverted: exp(1 - c/r) instead of the contract's
# exp(1 - r/c) ("brevity_penalty is 1 when c > r, 0 when c = 0, otherwise exp(1 - r/c)").
# For c = r both are 1, so only hypotheses shorter than their references expose it,
# e.g. the contract's second example: c = 17, r = 18, bp = exp(1 - 18/17) = 0.942873,
# where the bug gives exp(1 - 17/18) = 1.057...
INVERTED_BREVITY_PENALTY = """
    import math
    import oracle

    def execute(tool_id, version, payload):
        output = oracle.execute(tool_id, version, payload)
        c, r = output.get("candidate_length"), output.get("reference_length")
        if tool_id == "bleu-corpus-compute" and 0 < c < r:
            wrong = math.exp(1 - c / r)
            if output["brevity_penalty"]:
                output["bleu"] = output["bleu"] / output["brevity_penalty"] * wrong
            output["brevity_penalty"] = wrong
            if "decimals" in payload:
                output["bleu"] = round(output["bleu"], payload["decimals"])
                output["brevity_penalty"] = round(wrong, payload["decimals"])
        return output
"""

# Answers the first call (the preflight) and then crashes on every input.
CRASHES_AFTER_PREFLIGHT = """
    import oracle
    calls = []

    def execute(tool_id, version, payload):
        calls.append(1)
        if len(calls) > 1:
            raise RuntimeError("segfault simulated")
        return oracle.execute(tool_id, version, payload)
"""

# The oracle, logging every input it is sent (one JSON line each) to the file named by
# the environment variable INPUT_LOG: shows which cases a run generated.
LOGGING_ORACLE = """
    import json, os
    import oracle

    def execute(tool_id, version, payload):
        with open(os.environ["INPUT_LOG"], "a", encoding="utf-8") as log:
            log.write(json.dumps([tool_id, payload], ensure_ascii=True) + "\\n")
        return oracle.execute(tool_id, version, payload)
"""


# The oracle, except that every third answer has its brevity penalty off by 0.5: the
# same input gets different answers, which Hypothesis reports as flaky.
FLAKY_WRONG = """
    import oracle
    calls = []

    def execute(tool_id, version, payload):
        calls.append(1)
        output = oracle.execute(tool_id, version, payload)
        if len(calls) % 3 == 0:
            output["brevity_penalty"] = output["brevity_penalty"] * 0.5
        return output
"""


def write_module(directory: Path, name: str, source: str) -> None:
    (directory / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")


def conformance(*args: str, cwd: Path, env: dict | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    import os

    full_env = {**os.environ, "PYTHONPATH": str(cwd), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "conformance", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def conformance_in_process(*args: str, cwd: Path, monkeypatch, capfd) -> tuple[int, str]:
    """The same command in this process: the suite is pytest-native, so a run nests cleanly."""
    from conformance.cli import main

    monkeypatch.chdir(cwd)
    monkeypatch.syspath_prepend(str(cwd))
    code = main(list(args))
    out, err = capfd.readouterr()
    return code, out + err


def report(directory: Path) -> dict:
    return json.loads((directory / "report.json").read_text(encoding="utf-8"))


@pytest.mark.slow  # a whole run (the default run's whole run is test_power's independent implementation)
def test_oracle_passes_quick_profile(tmp_path):
    run = conformance(
        "run",
        "--target",
        "oracle",
        "--profile",
        "quick",
        "--seed",
        "5",
        "--report-dir",
        "out",
        "--junit",
        "ci/junit.xml",
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    record = report(tmp_path / "out")
    assert record["header"]["seed"] == 5 and record["header"]["profile"] == "quick"
    assert record["totals"]["failed"] == record["totals"]["errored"] == 0
    tools = {result["case"]["tool_id"] for result in record["results"]}
    assert tools == {tool.id for tool in oracle.tools()}  # every tool, by its fixtures at least
    assert record["properties"] and all(
        prop["outcome"] == "passed" and prop["examples"] > 0 for prop in record["properties"]
    )
    assert "seed 5" in run.stdout and "conformant" in run.stdout
    for name in ("report.json", "report.md", "report.html"):
        assert (tmp_path / "out" / name).is_file()
    assert "<testsuite" in (tmp_path / "ci" / "junit.xml").read_text(encoding="utf-8")


def test_exec_command_target_passes(tmp_path, monkeypatch, capfd):
    target = f"cmd:{PYTHON} -m conformance exec {{tool}}@{{version}}"
    # one process per case: the contract's worked examples are enough here
    code, output = conformance_in_process(
        "run",
        "--target",
        target,
        "--tools",
        BLEU,
        "--fixtures-only",
        "--workers",
        "2",
        "-k",
        "examples",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 0, output
    record = report(tmp_path / "out")
    assert record["totals"]["passed"] == len(record["results"]) >= 3


def test_wrong_brevity_penalty_fails_with_a_replayable_reproducer(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "inverted_bp", INVERTED_BREVITY_PENALTY)
    code, output = conformance_in_process(
        "run",
        "--target",
        "python:inverted_bp",
        "--tools",
        BLEU,
        "--profile",
        "quick",
        "--seed",
        "3",
        "-k",
        "examples or short-and-empty",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 1, output
    assert "NOT conformant" in output
    record = report(tmp_path / "out")
    failed = {result["case"]["case_id"]: result for result in record["results"] if result["outcome"] == "failed"}
    # the contract's second worked example (c = 17 < r = 18) is one of the golden cases
    example = failed["bleu-corpus-compute/1.0.0/examples#contract-example-2-three-segments"]
    assert example["mismatch"]["pointer"] == "/brevity_penalty"
    # a generated family of short hypotheses finds it too, shrunk to a small input
    shrunk = [result for case_id, result in failed.items() if case_id.startswith("generated/")]
    assert shrunk and len(json.dumps(shrunk[0]["case"]["input"])) < 200
    first = shrunk[0]
    assert first["case"]["case_id"] in output
    reproducer = tmp_path / first["reproducer_file"]
    saved = json.loads(reproducer.read_text(encoding="utf-8"))
    assert saved["target"] == "python:inverted_bp" and saved["seed"] == 3
    assert saved["case"]["input"] == first["case"]["input"]

    code, output = conformance_in_process("replay", str(reproducer), cwd=tmp_path, monkeypatch=monkeypatch, capfd=capfd)
    assert code == 1, output
    assert "still fails" in output and "expected output (oracle)" in output
    code, output = conformance_in_process(
        "replay", str(reproducer), "--target", "oracle", cwd=tmp_path, monkeypatch=monkeypatch, capfd=capfd
    )
    assert code == 0, output


@pytest.mark.slow  # a whole-run comparison (tests/test_strategies.py draws the same cases under a seed, quick)
def test_same_seed_same_cases(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "logging_oracle", LOGGING_ORACLE)
    logs = []
    for attempt in range(2):
        log = tmp_path / f"inputs-{attempt}.jsonl"
        monkeypatch.setenv("INPUT_LOG", str(log))
        code, output = conformance_in_process(
            "run",
            "--target",
            "python:logging_oracle",
            "--tools",
            "bleu-ngrams-count",
            "--generated-only",
            "--profile",
            "quick",
            "--seed",
            "11",
            "-k",
            "valid",
            "--report-dir",
            f"out{attempt}",
            cwd=tmp_path,
            monkeypatch=monkeypatch,
            capfd=capfd,
        )
        assert code == 0, output
        logs.append(log.read_text(encoding="utf-8").splitlines())
    assert len(logs[0]) > 10
    assert sorted(logs[0]) == sorted(logs[1])  # a burst sends its requests at once, in any order


@pytest.mark.parametrize(
    "args, message",
    [
        (["--target", "oracle", "--tools", "no-such-tool"], "unknown tool"),
        (["--target", "ftp://example.org"], "unknown target"),
        (["--target", "python:no_such_module_for_tests"], "cannot import"),
        (["--target", "oracle", "--known-failures", "missing.json"], "cannot read"),
        (["--target", "oracle", "--profile", "huge"], "invalid choice"),
        (["--tools", BLEU], "--target"),
        (["--target", "oracle", "-k", "no_test_has_this_name"], "no case selected"),
    ],
)
def test_bad_usage_exits_2(tmp_path, monkeypatch, capfd, args, message):
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    try:
        code = main(["run", *args, "--report-dir", "out", "--fixtures-only"])
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    out, err = capfd.readouterr()
    assert code == 2, out + err
    assert message in out + err
    assert not (tmp_path / "out" / "report.json").exists(), "a usage error runs nothing"


def test_dead_command_target_exits_3_quickly(tmp_path, monkeypatch, capfd):
    started = time.monotonic()
    code, output = conformance_in_process(
        "run",
        "--target",
        "cmd:no-such-command-for-conformance-tests",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 3, output
    assert time.monotonic() - started < 300  # a guard against a hang only: a loaded machine is slow
    record = report(tmp_path / "out")
    assert "preflight" in record["unhealthy_reason"] and "not found" in record["unhealthy_reason"]
    assert record["totals"]["passed"] == 0
    # "quickly": after the failed preflight no case calls the dead target (a call each would take its timeout)
    assert record["header"]["breaker"]["calls"] == 0, record["header"]["breaker"]
    assert record["totals"]["skipped"] == sum(record["totals"].values()) > 0
    assert "could not conclude" in output
    # the progress lines say the checks were skipped, as the report counts them (not "0 failing" alone)
    said = [int(n) for n in re.findall(r"^  [a-z-]+ +\d+ checks? · 0 failing · (\d+) skipped · ", output, re.M)]
    assert len(said) == 8 and sum(said) == record["totals"]["skipped"], output


def test_circuit_breaker_stops_a_target_that_keeps_crashing(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "crashes", CRASHES_AFTER_PREFLIGHT)
    started = time.monotonic()
    code, output = conformance_in_process(
        "run", "--target", "python:crashes", "--report-dir", "out", cwd=tmp_path, monkeypatch=monkeypatch, capfd=capfd
    )
    assert code == 3, output
    assert time.monotonic() - started < 60
    record = report(tmp_path / "out")
    assert "transport errors in a row" in record["unhealthy_reason"]
    assert "RuntimeError: segfault simulated" in record["unhealthy_reason"]
    # the breaker opens after 5 transport errors in a row: an in-process crash is followed by the contract's
    # example, asked to see whether the target answers others (engine/health.py), 2 calls a case; the
    # third case's first call trips it
    assert record["totals"]["errored"] == 2, "the breaker opens after 5 errors in a row"
    assert record["totals"]["skipped"] > 50, "the rest is skipped without calling the target"


@pytest.mark.slow  # a whole quick run over HTTP (tests/test_server_e2e.py runs the served oracle by default)
def test_http_target_on_loopback_passes(tmp_path, monkeypatch, capfd):
    from faulty_servers import oracle_server

    with oracle_server() as (url, _process, _log):
        code, output = conformance_in_process(
            "run",
            "--target",
            url,
            "--tools",
            BLEU,
            "--profile",
            "quick",
            "--seed",
            "2",
            "--report-dir",
            "out",
            cwd=tmp_path,
            monkeypatch=monkeypatch,
            capfd=capfd,
        )
    assert code == 0, output
    record = report(tmp_path / "out")
    assert record["header"]["target"] == url and record["totals"]["passed"] > 10


def test_a_target_wrong_only_some_of_the_time_fails(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "flaky_wrong", FLAKY_WRONG)
    code, output = conformance_in_process(
        "run",
        "--target",
        "python:flaky_wrong",
        "--tools",
        BLEU,
        "--generated-only",
        "--profile",
        "quick",
        "--seed",
        "4",
        "-k",
        "shared-ngrams",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 1, output
    record = report(tmp_path / "out")
    (failure,) = [result for result in record["results"] if result["outcome"] == "failed"]
    assert failure["mismatch"]["pointer"] in ("/brevity_penalty", "/bleu")
    assert "not every time" in failure["message"] and "harness" not in output.lower()


@pytest.mark.parametrize(
    "target, detail",
    [
        ("cmd:sleep 30", "timed out after 0.5 s"),  # a hanging target: the preflight times out
        ("cmd:echo '<html>Service Unavailable</html>'", "not JSON"),  # a garbage-answering one
    ],
)
def test_slow_or_garbage_target_exits_3_quickly(tmp_path, monkeypatch, capfd, target, detail):
    started = time.monotonic()
    code, output = conformance_in_process(
        "run",
        "--target",
        target,
        "--timeout",
        "0.5",
        "--tools",
        BLEU,
        "--fixtures-only",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 3, output
    assert time.monotonic() - started < 30
    assert detail in report(tmp_path / "out")["unhealthy_reason"]


def test_unwritable_report_dir_is_a_usage_error(tmp_path, monkeypatch, capfd):
    (tmp_path / "a-file").write_text("not a directory", encoding="utf-8")
    code, output = conformance_in_process(
        "run", "--target", "oracle", "--report-dir", "a-file/out", cwd=tmp_path, monkeypatch=monkeypatch, capfd=capfd
    )
    assert code == 2 and "--report-dir" in output


def test_a_broken_suite_is_not_blamed_on_the_target(tmp_path, monkeypatch, capfd):
    import conformance.strategies

    def broken_families(tool_id, version):
        raise RuntimeError("a strategy bug")

    monkeypatch.setattr(conformance.strategies, "families", broken_families)
    code, output = conformance_in_process(
        "run",
        "--target",
        "oracle",
        "--tools",
        BLEU,
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 3, output
    assert "HARNESS ERROR" in output and "a strategy bug" in output


def test_a_comparison_bug_is_not_blamed_on_the_target(tmp_path, monkeypatch, capfd):
    import conformance.compare

    def broken_judge(case, expected, response):
        raise KeyError("a comparison bug")

    monkeypatch.setattr(conformance.compare, "judge", broken_judge)
    code, output = conformance_in_process(
        "run",
        "--target",
        "oracle",
        "--tools",
        BLEU,
        "--generated-only",
        "-k",
        "clipping",
        "--profile",
        "quick",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 3, output
    assert "HARNESS ERROR" in output and "a comparison bug" in output
    (prop,) = report(tmp_path / "out")["properties"]
    assert prop["outcome"] == "errored" and "harness error" in prop["message"]


def test_generated_only_runs_the_properties_and_no_fixture_case(tmp_path, monkeypatch, capfd):
    code, output = conformance_in_process(
        "run",
        "--target",
        "oracle",
        "--profile",
        "quick",
        "--seed",
        "3",
        "--tools",
        BLEU,
        "--generated-only",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 0, output
    record = report(tmp_path / "out")
    assert record["properties"] and all(p["outcome"] == "passed" for p in record["properties"])
    assert not [r for r in record["results"] if r["case"]["origin"] == "fixture"]


# Answers every call with not_found, as a wrong base URL or an undeployed tool would.
SERVES_NOTHING = """
    class NotFound(Exception):
        code = "not_found"

    def execute(tool_id, version, payload):
        raise NotFound(f"no tool {tool_id}@{version} here")
"""


def test_a_target_that_serves_no_tool_cannot_be_judged(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "serves_nothing", SERVES_NOTHING)
    code, output = conformance_in_process(
        "run",
        "--target",
        "python:serves_nothing",
        "--profile",
        "quick",
        "--tools",
        BLEU,
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 3, output
    assert "not found" in output and (tmp_path / "out" / "report.json").is_file()


# The oracle for the published tools only: a draft tool is "not found", as a hosted service
# answers before it deploys the draft.
PUBLISHED_ONLY = """
    import oracle

    class NotFound(Exception):
        code = "not_found"

    def execute(tool_id, version, payload):
        if oracle.contract(tool_id, version).status == "draft":
            raise NotFound(f"no tool {tool_id}@{version}")
        return oracle.execute(tool_id, version, payload)
"""


def test_a_draft_tool_the_target_does_not_serve_is_reported_not_failed(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "published_only", PUBLISHED_ONLY)
    code, output = conformance_in_process(
        "run",
        "--target",
        "python:published_only",
        "--generated-only",
        "--profile",
        "quick",
        "-k",
        "not-an-object",
        "--tools",
        f"{BLEU},bleu-sentence-compute",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 0, output
    assert "not served by the target" in output and "bleu-sentence-compute@1.0.0" in output
    document = report(tmp_path / "out")
    assert document["header"]["not_served"] == ["bleu-sentence-compute@1.0.0"]
    outcomes = {p["tool_id"]: (p["outcome"], p["message"]) for p in document["properties"]}
    assert outcomes["bleu-sentence-compute"][0] == "skipped" and "not served" in outcomes["bleu-sentence-compute"][1]
    assert outcomes[BLEU][0] == "passed"


def test_a_target_serving_none_of_the_selected_tools_cannot_be_judged(tmp_path, monkeypatch, capfd):
    write_module(tmp_path, "published_only", PUBLISHED_ONLY)
    code, output = conformance_in_process(
        "run",
        "--target",
        "python:published_only",
        "--generated-only",
        "--profile",
        "quick",
        "-k",
        "not-an-object",
        "--tools",
        "bleu-sentence-compute",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 3, output
    assert "serves none of the selected tools" in output


ONE_TOOL = """
    import oracle

    class NotFound(Exception):
        code = "not_found"

    def execute(tool_id, version, payload):
        if tool_id != "bleu-brevity-penalty":
            raise NotFound(f"this module implements bleu-brevity-penalty only, not {tool_id}")
        return oracle.execute(tool_id, version, payload)
"""


def test_a_one_tool_implementation_is_checked_without_tools(tmp_path, monkeypatch, capfd):
    """The documented command for a module, unchanged: every other tool, published or draft, answered
    'not found' at the preflight, is not served (listed in the header), and the one tool is judged."""
    write_module(tmp_path, "one_tool", ONE_TOOL)
    code, output = conformance_in_process(
        "run",
        "--target",
        "python:one_tool",
        "--generated-only",
        "--profile",
        "quick",
        "-k",
        "not-an-object",
        "--report-dir",
        "out",
        cwd=tmp_path,
        monkeypatch=monkeypatch,
        capfd=capfd,
    )
    assert code == 0, output
    document = report(tmp_path / "out")
    assert "bleu-brevity-penalty@1.0.0" not in document["header"]["not_served"]
    assert (
        len(document["header"]["not_served"]) == 7 and "bleu-corpus-compute@1.0.0" in document["header"]["not_served"]
    )
    judged = {p["tool_id"] for p in document["properties"] if p["outcome"] == "passed"}
    assert judged == {"bleu-brevity-penalty"}
    # the console names them for what they are: published tools among them, not "draft tools"
    [line] = [line for line in output.splitlines() if line.startswith("not served by the target")]
    assert "bleu-corpus-compute@1.0.0" in line and "draft" not in line, line
    # and the verdict says it judged one tool of the eight, not that every tool conforms
    [verdict] = [line for line in output.splitlines() if line.startswith("target python:one_tool:")]
    assert verdict.endswith("; 1 of 8 tools served)"), verdict
    skipped = {p["message"] for p in document["properties"] if p["tool_id"] == "bleu-corpus-compute"}
    assert skipped == {"not served: the target answers 'not found' for bleu-corpus-compute@1.0.0"}


@pytest.mark.parametrize(
    "target, hint",
    [
        ("cmd:false", "gets the input JSON on stdin"),
        ("jsonl:true", "one JSON request per line"),
        ("http://127.0.0.1:9", "check the base URL"),
        ("mcp+http://127.0.0.1:9/mcp", "check the URL of the MCP endpoint"),
    ],
)
def test_a_preflight_stop_says_target_unusable_with_the_call_to_try_and_a_hint_of_its_kind(
    tmp_path, monkeypatch, capfd, target, hint
):
    """A target that answers nothing (port 9 refuses; `false` prints nothing; `true` exits): one wording,
    "target unusable", at the start and in the summary, never "target unhealthy" (the breaker's); the
    contract example's call to try by hand, and what to check for this kind of target."""
    code, output = conformance_in_process(
        "run", "--target", target, "--profile", "quick", "--tools", BLEU, "--report-dir", "out",
        cwd=tmp_path, monkeypatch=monkeypatch, capfd=capfd,
    )  # fmt: skip
    assert code == 3, output
    assert "target unhealthy" not in output.lower()
    assert output.count("target unusable: preflight: it did not answer the bleu-corpus-compute@1.0.0") == 1
    assert "TARGET UNUSABLE, run stopped" in output
    assert "try by hand: " in output and '"hypotheses":[["this","is","a","test"]]' in output  # the example
    assert hint in output
