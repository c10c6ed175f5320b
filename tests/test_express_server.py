"""The HTTP target against a server on Express with its framework defaults (tools/express_server).

The server is written as a typical service on Express is (``app.use(express.json())``, one route
for ``execute``) and answers with the oracle behind the line protocol; whatever Express does by
itself (a body over its limit: 413 with an HTML page; a malformed body: 400) stays as Express does
it. Two judgements of it:

* with Express's default body limit (100 kB), a valid chrF input whose body is larger is refused with
  413: the suite must catch it (``valid/largest-body`` among the failing families), and that must be
  the only kind of failure: anything else would be a false alarm of the suite, or an Express
  behaviour to look into;
* with the limit raised above the largest valid body (``--limit 16mb``), it is a correct server on a
  real framework, fed every wire form the suite draws (conformance/wire.py): it must be judged
  conformant, with no failure at all.

The quick profile over every tool runs by default; the default profile over every tool, for two
seeds, with ``-m slow``. Skipped when Node or Express is missing (``npm install --prefix
tools/express_server``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from node_servers import node_server
from runs import run_with_output

ROOT = Path(__file__).resolve().parent.parent
EXPRESS_SERVER = ROOT / "tools" / "express_server"
RUN_TIMEOUT = 600
SLOW_RUN_TIMEOUT = 1800
RAISED_LIMIT = "16mb"  # above the largest compact body of any valid input (about 6.5 MB)

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (EXPRESS_SERVER / "node_modules" / "express").is_dir(),
    reason="node or Express is not installed (npm install --prefix tools/express_server)",
)


def express_server(flags: tuple[str, ...], log: Path):
    """The server with ``flags`` on a free loopback port, for the duration of the block: its base URL."""
    return node_server(EXPRESS_SERVER / "server.mjs", ("--port", "0", *flags), log)


def judged(
    flags: tuple[str, ...], report_dir: Path, *options: str, timeout: float = RUN_TIMEOUT
) -> tuple[int, dict, str]:
    """A run against the server with ``flags``: its exit code, report.json and console output."""
    report_dir.mkdir(parents=True, exist_ok=True)
    with express_server(flags, report_dir / "server.log") as url:
        return run_with_output(url, report_dir, *options, timeout=timeout)


def failed(report: dict) -> list[dict]:
    return [result for result in report["results"] if result["outcome"] != "passed"]


def described(results: list[dict]) -> str:
    return "\n".join(f"{result['case']['case_id']}: {result['message'][:300]}" for result in results)


def check_conformant(code: int, report: dict, output: str) -> None:
    assert report, output
    assert not failed(report), described(failed(report))
    assert code == 0, output
    assert report["totals"]["failed"] == report["totals"]["errored"] == 0


@pytest.mark.slow  # a server of another language: a whole run of two tools
def test_the_default_body_limit_is_caught_and_is_the_only_failure(tmp_path):
    code, report, output = judged(
        (), tmp_path, "--tools", "chrf-compute", "--seed", "1", "--families", "valid/*,boundary/*"
    )
    assert code == 1, output
    assert report["totals"]["errored"] == 0, output
    families = {prop["family"] for prop in report["properties"] if prop["outcome"] == "failed"}
    assert "valid/largest-body" in families, families
    not_too_large = [
        result
        for result in failed(report)
        if not (
            result["outcome"] == "failed"
            and result["case"]["expect"]["kind"] == "output"
            and (result["response"] or {}).get("kind") == "rejection"
            and (result["response"] or {}).get("status") == 413
        )
    ]
    assert not not_too_large, described(not_too_large)


@pytest.mark.slow  # a server of another language: a whole run of two tools
def test_the_raised_body_limit_passes(tmp_path):
    """One tool of texts and one of tokens at the quick profile (every tool runs under -m slow)."""
    tools = ("--tools", "chrf-plus-plus-compute,bleu-ngrams-count")
    check_conformant(*judged(("--limit", RAISED_LIMIT), tmp_path, "--profile", "quick", "--seed", "1", *tools))


@pytest.mark.slow  # every tool at the default profile: about three minutes a seed on two busy cores
@pytest.mark.parametrize("seed", ["1", "2"])
def test_the_raised_body_limit_passes_every_tool_at_the_default_profile(tmp_path, seed):
    check_conformant(*judged(("--limit", RAISED_LIMIT), tmp_path, "--seed", seed, timeout=SLOW_RUN_TIMEOUT))
