"""What every target shares: the defaults, the usage error, bounded excerpts and the
reading of an error code from the common error-body shapes."""

from __future__ import annotations

from typing import Any

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 8 * 1024 * 1024  # far above the largest legal output (1,000,000 bytes)
EXCERPT_CHARS = 500  # how much of a bad answer a report shows


class TargetSpecError(ValueError):
    """The --target value cannot be used (a usage error, exit 2)."""


def excerpt(text: str | bytes, limit: int = EXCERPT_CHARS) -> str:
    """The start of what came back, readable and bounded, for reports."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more chars]"


def read_error_code(body: Any) -> str | None:
    """The error code in the common error-body shapes, if any.

    The hosted error body is not published, so the shapes seen in the wild are read:
    ``{"error": {"code": C}}``, ``{"error": C}`` and ``{"code": C}``.
    """
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        return error["code"]
    if isinstance(error, str):
        return error
    if isinstance(body.get("code"), str):
        return body["code"]
    return None
