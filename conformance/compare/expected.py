"""The expected behaviour of a case: the oracle's, and (only when needed) every reading's.

An ``Expected`` is computed once per case and handed to the verdict explicitly; the
readings of the open points the input touches are computed on first use.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import oracle
from conformance import open_points
from conformance.model import Case
from conformance.open_points import Behaviour
from oracle.errors import ContractError
from oracle.tool import Tool


class Expected:
    def __init__(self, case: Case, tool: Tool):
        self.case = case
        self.tool = tool

    @cached_property
    def oracle(self) -> Behaviour:
        try:
            return Behaviour("oracle", output=self.tool.execute(self.case.input))
        except ContractError as error:
            return Behaviour("oracle", error_code=error.code, error_message=error.message)

    @cached_property
    def readings(self) -> list[Behaviour]:
        """Every reasonable reading's behaviour, the oracle's first, duplicates removed."""
        return open_points.behaviours(self.tool, self.case.input)

    def other_outputs(self) -> list[dict]:
        return [b.output for b in self.readings[1:] if b.output is not None]

    def acceptable_error_codes(self) -> set[str]:
        return open_points.acceptable_error_codes(self.tool, self.case.input)

    def summary(self) -> Any:
        """For reports: the oracle's output, or the expected rejection."""
        if self.case.expect.kind == "error":
            return {"error": self.case.expect.error_code or "any"}
        if self.oracle.output is not None:
            return self.oracle.output
        return {"error": self.oracle.error_code, "message": self.oracle.error_message}


def expect(case: Case) -> Expected:
    return Expected(case, oracle.tool(case.tool_id, case.version))
