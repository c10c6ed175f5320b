"""`python -m conformance run` in a process of its own, from tests/ (where `python:mutants.X` imports)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def run_against(target: str, report_dir: Path, *options: str, timeout: float = 900) -> tuple[int, dict]:
    """The run's exit code and its report.json."""
    done = subprocess.run(
        [sys.executable, "-m", "conformance", "run", "--target", target, "--report-dir", str(report_dir), *options],
        capture_output=True,
        text=True,
        cwd=TESTS,
        timeout=timeout,
    )
    return done.returncode, json.loads((Path(report_dir) / "report.json").read_text(encoding="utf-8"))
