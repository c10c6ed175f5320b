"""A library is one module: written anywhere on the discovery path, it is a row of `conformance matrix` and a
library of `conformance crosscheck`, with nothing else edited (conformance/implementations/__init__.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
