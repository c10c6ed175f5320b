"""bleu-score (JavaScript, npm ``bleu-score``): ``bleu(reference, candidate, maxN)``.

The package scores one candidate string against one reference string: it splits both on ``' '``,
counts n-grams keyed by their space-joined text in plain objects, and returns
``BP * (p_1 * ... * p_N) ** (1/N)`` with p_n = clipped matches / (c - n + 1) and no smoothing. So it
expresses bleu-sentence-compute's ``bleu`` for one reference, ``smoothing`` "none", effective order
false, and tokens a split on ``' '`` gives back (no token holding a space; no empty hypothesis or
reference, which ``''.split(' ')`` makes one empty token). ``decimals`` rounds its float with toFixed
(``implementations.rounded``); the counts and lengths are not expressed, nor are the other tools.

It runs in Node.js: ``tools/npm_bleu_score/bridge.mjs`` (installed with ``npm install --prefix
tools/npm_bleu_score``) calls the package unchanged, one JSON line per call, in one process started on
the first call and ended when this interpreter exits. A ``NaN`` or ``Infinity`` score comes back as
``null`` (what ``JSON.stringify`` writes), and is judged as the package's answer.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import shutil
import subprocess
import threading
from pathlib import Path
from typing import IO

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, NotApplicable, Partial, rounded

BRIDGE = Path(__file__).resolve().parents[2] / "tools" / "npm_bleu_score"
PACKAGE = BRIDGE / "node_modules" / "bleu-score" / "package.json"
ANSWER_SECONDS = 10.0  # one call of a pure function on at most 50,000 tokens
ANSWER_BYTES = 4096  # an answer is one number

IMPLEMENTATION = Implementation(
    name="npm-bleu-score",
    language="JavaScript",
    distribution="npm:bleu-score",
    counterpart="require('bleu-score').bleu(reference, candidate, maxN)",
)

NOT_EXPRESSIBLE_OTHERWISE = (
    "bleu-score scores one candidate string against one reference string and returns "
    "the score only: no counts, totals or lengths, no corpus, no chrF"
)


def library_missing() -> str:
    """What is not installed ("" when Node.js and the package are there)."""
    if shutil.which("node") is None:
        return "not installed: node"
    return "" if PACKAGE.is_file() else "not installed: npm install --prefix tools/npm_bleu_score"


def library_version() -> str:
    try:
        return json.loads(PACKAGE.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return ""


def inexpressible(payload: dict) -> str:
    """Why the package cannot be given this bleu-sentence-compute input ("" when it can)."""
    if len(payload["references"]) != 1:
        return "more than one reference: bleu-score takes one reference string"
    if payload["smoothing"] != "none":
        return "smoothing other than none: bleu-score does not smooth"
    if payload.get("effective_order", False):
        return "effective_order true: bleu-score has no effective order"
    reference, candidate = payload["references"][0], payload["hypothesis"]
    if not reference or not candidate:
        return "an empty hypothesis or reference: bleu-score splits the string, and ''.split(' ') is one empty token"
    if any(" " in token for token in (*reference, *candidate)):
        return "a token holding a space: bleu-score splits strings on ' '"
    return ""


def score(payload: dict) -> float | None:
    """The package's score of an input it expresses, in full precision (None: a NaN or an infinity)."""
    reference, candidate = payload["references"][0], payload["hypothesis"]
    return _BRIDGE.ask({"reference": " ".join(reference), "candidate": " ".join(candidate), "maxN": max_order(payload)})


def bleu_sentence_compute(payload: dict) -> Partial:
    reason = inexpressible(payload)
    if reason:
        raise NotApplicable(reason)
    found = score(payload)
    return Partial({"bleu": found if found is None else rounded(payload, found)})


class _Bridge:
    """The Node.js process behind the package: started on first use, one call at a time."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def ask(self, request: dict) -> float | None:
        with self._lock:
            process = self._process
            if process is None or process.poll() is not None:
                process = self._process = subprocess.Popen(
                    ["node", str(BRIDGE / "bridge.mjs")],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    cwd=BRIDGE,
                )
            assert process.stdin is not None and process.stdout is not None  # both piped above
            process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            process.stdin.flush()
            answer = json.loads(self._read_line(process.stdout))
        if "error" in answer:
            raise RuntimeError(f"bleu-score threw: {answer['error']}")
        return answer["score"]

    def _read_line(self, stdout: IO[bytes]) -> bytes:
        """One answer line, within ANSWER_SECONDS and ANSWER_BYTES (the process is ended otherwise)."""
        line = b""
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                if not selector.select(ANSWER_SECONDS) or len(line) > ANSWER_BYTES:
                    self.close()
                    raise RuntimeError("bleu-score's bridge gave no answer line in time")
                chunk = os.read(stdout.fileno(), ANSWER_BYTES)
                if not chunk:
                    self.close()
                    raise RuntimeError("bleu-score's bridge exited")
                line += chunk
        return line

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None


_BRIDGE = _Bridge()
atexit.register(_BRIDGE.close)
