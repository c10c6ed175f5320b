"""bleu-brevity-penalty answering 1 for every penalty below 1 (the oracle's answer otherwise), in a run whose
naming of each failure's divergence takes half a second: the reports of its many failures take long to write.
Naming touches the file named by CONFORMANCE_NAMING_MARK when it starts, so a test knows the run is writing its
reports (tests/test_sigterm.py). Naming stops, as the real one does, once a signal has come (termination.CUT)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import conformance.divergences as divergences
import oracle
from conformance.termination import CUT

_name_failure = divergences.name_failure


def _slow_name_failure(*args, **kwargs):
    Path(os.environ["CONFORMANCE_NAMING_MARK"]).touch()
    if not CUT.is_set():
        time.sleep(0.5)
    return _name_failure(*args, **kwargs)


divergences.name_failure = _slow_name_failure


def execute(tool_id, version, payload):
    output = oracle.execute(tool_id, version, payload)
    if tool_id == "bleu-brevity-penalty" and output["brevity_penalty"] < 1:
        return {**output, "brevity_penalty": 1.0}
    return output
