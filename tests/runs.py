"""`python -m conformance run` in a process of its own, from tests/ (where `python:mutants.X` imports)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def run_against(target: str, report_dir: Path, *options: str, timeout: float = 900) -> tuple[int, dict]:
    """The run's exit code and its report.json."""
    code, report, _ = run_with_output(target, report_dir, *options, timeout=timeout)
    return code, report


def run_with_output(target: str, report_dir: Path, *options: str, timeout: float = 900) -> tuple[int, dict, str]:
    """The run's exit code, its report.json ({} when it wrote none) and the end of its console output."""
    done = subprocess.run(
        [sys.executable, "-m", "conformance", "run", "--target", target, "--report-dir", str(report_dir), *options],
        capture_output=True,
        text=True,
        cwd=TESTS,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    report_file = Path(report_dir) / "report.json"
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.is_file() else {}
    return done.returncode, report, done.stdout[-3000:] + done.stderr[-3000:]
