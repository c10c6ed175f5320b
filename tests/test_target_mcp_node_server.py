"""The MCP target against an MCP server on the official TypeScript SDK (tools/mcp_node_server).

The server is written as a user of that SDK would write it (McpServer, zod, the Streamable HTTP
transport) and answers with the oracle behind the line protocol, so each variant of it must pass
(exit 0) and the variant with a deliberate bug must be caught (exit 1). Its zod schema declares
``input`` an object, as is natural: the SDK then refuses an array, a string or null itself, with
``isError`` and plain text (open point A17), which must pass as a rejection, not end the run.

Variants: ``input`` declared an object or any value; the envelope as structuredContent and text,
or text only; answers as server-sent events or JSON bodies; stateless or with sessions. The
default run judges two (one tool's examples and validation fixtures, in parallel); the whole
matrix, every tool at the quick profile, runs with ``-m slow``. Skipped when Node or the SDK is
missing (``npm install --prefix tools/mcp_node_server``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from node_servers import node_server as launch

ROOT = Path(__file__).resolve().parent.parent
NODE_SERVER = ROOT / "tools" / "mcp_node_server"
RUN_TIMEOUT = 600
BREVITY = "bleu-brevity-penalty"
REFUSED_BY = "the server's MCP input schema"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (NODE_SERVER / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir(),
    reason="node or the TypeScript MCP SDK is not installed (npm install --prefix tools/mcp_node_server)",
)

# name -> the server's flags; every one of them is a correct server
CORRECT = {
    f"{declared}-{shape}-{mode}": ("--input", declared, "--shape", shape, "--response", mode)
    for declared in ("object", "any")
    for shape in ("both", "text")
    for mode in ("sse", "json")
}
CORRECT["object-both-sse-stateful"] = (*CORRECT["object-both-sse"], "--stateful")
CORRECT["any-text-json-stateful"] = (*CORRECT["any-text-json"], "--stateful")
# one deliberate bug: bleu-brevity-penalty's candidate_length one too many
BUGGY = ("--input", "any", "--shape", "text", "--response", "json", "--stateful", "--bug", "brevity-off-by-one")


def node_server(flags: tuple[str, ...], log: Path):
    """The server with ``flags`` on a free loopback port, for the duration of the block: its /mcp URL."""
    return launch(NODE_SERVER / "server.mjs", ("--python", sys.executable, *flags), log)


def judged(flags: tuple[str, ...], report_dir: Path, *options: str) -> tuple[int, dict, str]:
    """A run against the server with ``flags``: its exit code, report.json and console output."""
    report_dir.mkdir(parents=True, exist_ok=True)
    with node_server(flags, report_dir / "server.log") as url:
        process = subprocess.run(
            [
                sys.executable,
                "-m",
                "conformance",
                "run",
                "--target",
                "mcp+" + url,
                "--seed",
                "1",
                "--report-dir",
                str(report_dir),
                *options,
            ],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    report_file = report_dir / "report.json"
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.is_file() else {}
    return process.returncode, report, process.stdout[-3000:] + process.stderr[-3000:]


def refusals(report: dict) -> list[dict]:
    return [result for result in report["results"] if (result["response"] or {}).get("refused_by")]


def check_conformant(name: str, code: int, report: dict, output: str) -> None:
    assert code == 0, output
    assert report["totals"]["failed"] == report["totals"]["errored"] == 0
    refused = refusals(report)
    if name.startswith("object"):  # the fixtures whose input is not an object, refused by the SDK's zod check
        assert refused and all(result["outcome"] == "passed" and REFUSED_BY in result["message"] for result in refused)
    else:  # input declared as any value: the tool itself rejects, with the contract's error body
        assert not refused


def check_caught(code: int, report: dict, output: str) -> None:
    assert code == 1, output
    failed = [result for result in report["results"] if result["outcome"] == "failed"]
    assert failed and report["totals"]["errored"] == 0
    assert {(result["case"]["tool_id"], result["mismatch"]["pointer"]) for result in failed} == {
        (BREVITY, "/candidate_length")
    }


SOME_FIXTURES = ("--fixtures-only", "--tools", BREVITY, "-k", "examples or validation")


def test_a_typescript_sdk_server_is_judged_and_its_bug_caught(tmp_path):
    # the natural server (input declared an object, both shapes, server-sent events, stateless) passes;
    # the buggy one, in every other mode at once (input any, text only, JSON bodies, sessions), is caught
    with ThreadPoolExecutor(2) as pool:  # two cores
        correct = pool.submit(judged, CORRECT["object-both-sse"], tmp_path / "correct", *SOME_FIXTURES)
        buggy = pool.submit(judged, BUGGY, tmp_path / "buggy", *SOME_FIXTURES)
        check_conformant("object-both-sse", *correct.result())
        check_caught(*buggy.result())


@pytest.mark.slow  # every tool at the quick profile: about a minute a variant on two busy cores
@pytest.mark.parametrize("name", sorted(CORRECT))
def test_every_variant_of_the_typescript_sdk_server_is_conformant(tmp_path, name):
    check_conformant(name, *judged(CORRECT[name], tmp_path, "--profile", "quick", "--workers", "2"))


@pytest.mark.slow
def test_the_buggy_typescript_sdk_server_is_caught_among_every_tool(tmp_path):
    check_caught(*judged(BUGGY, tmp_path, "--profile", "quick", "--workers", "2"))
