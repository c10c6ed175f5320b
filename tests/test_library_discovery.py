"""A library is one module: written anywhere on the discovery path, it is a row of `conformance matrix` and a
library of `conformance crosscheck`, with nothing else edited (conformance/implementations/__init__.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.matrix.document import run_cell

ROOT = Path(__file__).resolve().parent.parent

# A library that answers the brevity-penalty tool with the oracle's own answer (so every case passes) and
# compares that answer with the oracle in the cross-check; it says why it has no other tool.
FAKE_LIBRARY = """
import oracle
from conformance.crosscheck.comparison import Comparison
from conformance.implementations import Implementation

IMPLEMENTATION = Implementation(name="fake-lengths", language="Python", distribution="fake-lengths")
NOT_EXPRESSIBLE_OTHERWISE = "fake-lengths only has a brevity penalty"


def library_version():
    return "0.1"


def bleu_brevity_penalty(payload):
    return oracle.execute("bleu-brevity-penalty", "1.0.0", payload)


def compare(payload, expected):
    comparison = Comparison()
    comparison.exact("brevity_penalty", expected["brevity_penalty"], bleu_brevity_penalty(payload)["brevity_penalty"])
    return comparison


def _checks():
    from conformance.crosscheck.model import Check

    return {"bleu_brevity_penalty": [Check("fake-lengths/brevity_penalty", "fake_lengths.bp(...)", compare)]}


CHECKS = _checks()
"""


def run(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess:
    libraries = tmp_path / "libraries"
    libraries.mkdir(exist_ok=True)
    (libraries / "fake_lengths.py").write_text(FAKE_LIBRARY, encoding="utf-8")
    environment = {**os.environ, "CONFORMANCE_LIBRARY_PATH": str(libraries)}
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
    )


def test_a_library_module_on_the_path_is_a_row_of_the_matrix(tmp_path):
    completed = run(tmp_path, "matrix", "--implementations", "fake-lengths", "--report-dir", str(tmp_path / "out"))
    assert completed.returncode == 0, completed.stdout + completed.stderr
    document = json.loads((tmp_path / "out" / "matrix.json").read_text(encoding="utf-8"))
    assert [row["name"] for row in document["implementations"]] == ["fake-lengths"]
    cells = {cell["tool"]: cell for cell in document["cells"]}
    assert cells["bleu-brevity-penalty@1.0.0"]["status"] == "conformant"
    assert cells["bleu-brevity-penalty@1.0.0"]["counts"]["passed"] > 0
    others = [cell for tool, cell in cells.items() if tool != "bleu-brevity-penalty@1.0.0"]
    assert others and all(cell["status"] == "not_applicable" for cell in others)
    assert {cell["not_applicable"][0]["cause"] for cell in others} == {"fake-lengths only has a brevity penalty"}


def test_a_library_module_on_the_path_is_cross_checked(tmp_path):
    completed = run(
        tmp_path, "crosscheck", "--against", "fake-lengths", "--examples", "5", "--output", str(tmp_path / "d.md")
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "fake-lengths/brevity_penalty: compared 5, agreed 5" in completed.stdout
    assert "`fake-lengths/brevity_penalty`" in (tmp_path / "d.md").read_text(encoding="utf-8")


def test_without_the_path_the_library_is_unknown(tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "crosscheck", "--against", "fake-lengths", "--examples", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key != "CONFORMANCE_LIBRARY_PATH"},
    )
    assert completed.returncode == 2 and "fake-lengths" in completed.stderr


# --- each step of a multi-request case is credited to its own tool's cell ---------------------------------------

# A library whose bleu-sentence-components is the oracle's and whose bleu-sentence-compute reports one token too
# many: every request of compute is wrong, inside the bursts and sequences of components' properties too.
TWO_TOOLS = """
import oracle
from conformance.implementations import Implementation

IMPLEMENTATION = Implementation(name="fake-two-tools", language="Python", distribution="fake-two-tools")


def library_version():
    return "0.1"


def bleu_sentence_components(payload):
    return oracle.execute("bleu-sentence-components", "1.0.0", payload)


def bleu_sentence_compute(payload):
    output = oracle.execute("bleu-sentence-compute", "1.0.0", payload)
    return {**output, "candidate_length": output["candidate_length"] + 1}


def compute_call(payload):
    return (
        "import json, oracle\\n"
        f"output = oracle.execute('bleu-sentence-compute', '1.0.0', {payload!r})\\n"
        "print(json.dumps({**output, 'candidate_length': output['candidate_length'] + 1}))\\n"
    )


CALLS = {"bleu_sentence_compute": compute_call}
"""


@pytest.mark.slow  # a whole matrix run of two tools (about a minute and a half)
def test_a_wrong_step_inside_another_tools_burst_counts_in_its_own_cell(tmp_path):
    libraries = tmp_path / "libraries"
    libraries.mkdir()
    (libraries / "fake_two_tools.py").write_text(TWO_TOOLS, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "matrix", "--implementations", "fake-two-tools"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
        env={**os.environ, "CONFORMANCE_LIBRARY_PATH": str(libraries), "PYTHONPATH": str(ROOT)},
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    out = tmp_path / "reports" / "compatibility"
    report = json.loads((out / "runs" / "fake-two-tools" / "report.json").read_text(encoding="utf-8"))
    # the run drew the case the test is about: a components property's multi-request case with a wrong compute step
    mixed = [
        result
        for result in report["results"]
        if result["case"]["case_id"].startswith("generated/bleu-sentence-components/")
        and any(step["tool_id"] == "bleu-sentence-compute" for step in result["case"].get("steps", []))
        and result["outcome"] == "failed"
    ]
    assert mixed, "no components case with a compute step failed: the run no longer draws one"
    cells = {cell["tool"]: cell for cell in json.loads((out / "matrix.json").read_text(encoding="utf-8"))["cells"]}
    components, compute = cells["bleu-sentence-components@1.0.0"], cells["bleu-sentence-compute@1.0.0"]
    assert components["status"] == "conformant" and components["counts"]["failed"] == 0
    assert compute["status"] == "failing" and compute["failure_groups"]
    assert all(group["count"] for group in compute["failure_groups"])
    # every group carries its call, and the audit finds each gives what the cell reports
    assert all(group["call"] for group in compute["failure_groups"])
    audited = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "matrix", "audit", str(out / "matrix.json")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert audited.returncode == 0, audited.stdout + audited.stderr
    # compute's cell counts the components properties whose compute steps went wrong
    compute_properties = {r["case"]["case_id"].rsplit("/", 1)[0] for r in report["results"]}
    assert compute["counts"]["failed"] >= len({p for p in compute_properties if "bleu-sentence-compute" in p}) + 1


def step(tool_id: str, outcome: str) -> dict:
    return {
        "tool_id": tool_id,
        "version": "1.0.0",
        "input": {"n": tool_id},
        "expect": {"kind": "output"},
        "outcome": outcome,
    }


def test_a_wrong_step_after_another_tools_first_wrong_step_has_a_group_in_its_cell():
    """A components burst whose first wrong step is compute's (the run's groups file the case under compute) and
    whose third step, components', is wrong too: components' cell fails and lists a group for that step; a
    compute-only burst does not touch components' cell."""
    components, compute = "bleu-sentence-components", "bleu-sentence-compute"
    property_id = f"generated/{components}/valid/burst"
    case = {
        "case_id": f"{property_id}/1",
        "tool_id": compute,  # the deciding step's, as steps.at_step records it
        "version": "1.0.0",
        "origin": "generated",
        "category": "valid",
        "input": {},
        "expect": {"kind": "output"},
        "sending": "burst",
        "steps": [step(components, "passed"), step(compute, "failed"), step(components, "failed")],
    }
    report = {
        "results": [{"case": case, "outcome": "failed", "message": "step 2 of 3 (burst): wrong", "response": None}],
        "properties": [{"id": property_id, "tool_id": components, "version": "1.0.0", "outcome": "failed"}],
        "failure_groups": [{"tool": f"{compute}@1.0.0", "title": "t", "clause": None, "divergence": None, "count": 1}],
    }
    cell = run_cell("x", f"{components}@1.0.0", report)
    assert cell["status"] == "failing" and cell["counts"]["failed"] == 1
    (group,) = cell["failure_groups"]
    assert group["count"] == 1 and group["smallest_case"] == f"{property_id}/1#step-3"
    other = run_cell("x", f"{compute}@1.0.0", report)
    assert other["counts"]["failed"] == 1 and len(other["failure_groups"]) == 1
    # the components step passing: components' own check passes (its only wrong step was compute's)
    case["steps"][2]["outcome"] = "passed"
    cell = run_cell("x", f"{components}@1.0.0", report)
    assert cell["status"] == "conformant" and cell["counts"] == {"passed": 1, "failed": 0, "not_applicable": 0}
    assert cell["failure_groups"] == []
