"""The one retry policy of the network targets (``http(s)://`` and ``mcp+http(s)://``).

Only the transport is retried: no answer, a dropped connection, a timeout, or one of
RETRYABLE_STATUSES; at most ``retries`` times (DEFAULT_RETRIES unless the target is told
otherwise). Re-sending is safe because every tool is a pure function of its input, so
``execute`` is idempotent by contract. Before retry number n the wait is the server's
``Retry-After`` on a 429 or 503 (capped at the timeout, so a huge one cannot hang the run), or
else urllib3's exponential backoff: none before the first retry, then BACKOFF_SECONDS * 2^(n-1)
(0.4 s, 0.8 s, ...), capped at the timeout.

The HTTP target hands these to urllib3's own ``Retry`` (targets.http); the MCP target, whose
transport is the MCP SDK's, asks ``wait_before_retry`` (targets.mcp). Both read ``Retry-After``
with urllib3's parser (seconds or an HTTP date).
"""

from __future__ import annotations

import random

import urllib3
from urllib3.util.retry import Retry

from conformance.targets.base import DEFAULT_RETRIES

__all__ = [
    "DEFAULT_RETRIES",
    "BACKOFF_SECONDS",
    "RETRYABLE_STATUSES",
    "RETRY_AFTER_STATUSES",
    "retry_after",
    "backoff",
    "wait_before_retry",
    "jitter",
]
BACKOFF_SECONDS = 0.2  # urllib3's backoff factor
JITTER_SECONDS = 0.2  # after a 429 or 503, up to this much more: the concurrent calls of a burst spread out
_jitter = random.Random()  # its own generator: the run's draws never depend on it
RETRYABLE_STATUSES = frozenset({408, 429, 502, 503, 504})
# The statuses whose Retry-After is honoured (urllib3 also honours one on a 413, but a 413 is the
# contract's limit_exceeded rejection: a verdict, never retried).
RETRY_AFTER_STATUSES = frozenset({429, 503})


def retry_after(value: str | None, cap: float) -> float | None:
    """The wait a ``Retry-After`` header value asks for, in seconds, at most ``cap``; None when there
    is none or it cannot be read (then the backoff applies)."""
    if value is None:
        return None
    try:
        seconds = Retry().parse_retry_after(value)
    except urllib3.exceptions.InvalidHeader:
        return None
    return min(seconds, cap)


def backoff(retry_number: int, cap: float) -> float:
    """urllib3's backoff before retry number ``retry_number`` (1 for the first), at most ``cap``."""
    return 0.0 if retry_number <= 1 else min(cap, BACKOFF_SECONDS * 2 ** (retry_number - 1))


def wait_before_retry(retry_number: int, status: int | None, retry_after_value: str | None, cap: float) -> float:
    """How long to wait before retry number ``retry_number`` after an answer of ``status`` (None: no
    answer) carrying ``retry_after_value``: as urllib3's Retry waits (a Retry-After of 0 falls back
    to the backoff, as there); the caller adds ``jitter``."""
    asked = retry_after(retry_after_value, cap) if status in RETRY_AFTER_STATUSES else None
    return asked if asked else backoff(retry_number, cap)


def jitter(status: int | None) -> float:
    """A random extra wait after a 429 or 503 (the server throttles): the calls it refused together, a
    burst's, come back spread out instead of together again."""
    return _jitter.uniform(0, JITTER_SECONDS) if status in RETRY_AFTER_STATUSES else 0.0
