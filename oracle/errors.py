"""The one error type of the oracle: ``ContractError(code, message)``.

``oracle.execute`` raises it for every rejection the contracts call for; ``code`` is
``invalid_input``, ``limit_exceeded`` or ``not_found`` (HTTP 400, 413, 404 in the hosted
API) and ``message`` names the offending path. ``body()`` is the error body of the hosted
API and of the command protocol: ``{"error": {"code": ..., "message": ...}}``.
"""

from typing import Any

INVALID_INPUT = "invalid_input"
LIMIT_EXCEEDED = "limit_exceeded"
NOT_FOUND = "not_found"

HTTP_STATUS = {INVALID_INPUT: 400, LIMIT_EXCEEDED: 413, NOT_FOUND: 404}


class ContractError(Exception):
    """A rejection the contract calls for; ``code`` is one of the three codes above."""

    def __init__(self, code: str, message: str):
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        # a message quotes input (a key, a token); a lone surrogate in it is written as \udXXX so
        # the message itself is always valid UTF-8, whatever it quotes
        message = message.encode("utf-8", "backslashreplace").decode("utf-8")
        super().__init__(message)
        self.code = code
        self.message = message

    @property
    def http_status(self) -> int:
        return HTTP_STATUS[self.code]

    def body(self) -> dict[str, Any]:
        """The error body of the hosted API and of the command protocol."""
        return {"error": {"code": self.code, "message": self.message}}

    def __repr__(self) -> str:
        return f"ContractError({self.code!r}, {self.message!r})"
