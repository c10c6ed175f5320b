"""The record of one open point, and what one reading does with an input."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oracle.tool import Tool

# (tool, payload) -> (tool, payload): the other reading, as the oracle with one step swapped
Alternative = Callable[[Tool, Any], tuple[Tool, Any]]


@dataclass(frozen=True)
class Quote:
    """Verbatim contract text: ``where`` is "semantics", "limits", "input_schema", "output_schema"
    or "execute_url"; ``text`` appears there (JSON parts in compact form)."""

    where: str
    text: str

    def found_in(self, contract: dict) -> bool:
        return any(self.text in text for text in contract_texts(contract, self.where))


def contract_texts(contract: dict, where: str) -> list[str]:
    if where == "semantics":
        return list(contract.get("semantics", ()))
    if where == "execute_url":
        return [contract.get("execute_url", "")]
    return [json.dumps(contract.get(where), separators=(",", ":"), ensure_ascii=False)]


@dataclass(frozen=True)
class OpenPoint:
    id: str
    title: str
    quotes: tuple[Quote, ...]
    open: str  # what the text leaves open
    readings: tuple[str, ...]  # the reasonable readings, the oracle's first
    oracle_reading: str
    avoidance: str  # how the suite avoids deciding it
    # which tools it is open in; default: those whose contract holds one of the quotes
    applies: Callable[[Tool], bool] | None = None
    # words of a contract's semantics that decide the point: it is not open in a contract saying them
    decided_by: tuple[str, ...] = ()
    # does this input depend on it? (only inputs a detector recognises may touch it)
    depends: Callable[[Tool, dict], bool] | None = None
    # the other reading, computed and accepted by the comparison
    alternative: Alternative | None = None
    alternative_name: str = ""
    # the error codes a reasonable reading may give for a rejected input
    error_codes: Callable[[Tool, Any], set[str]] | None = None
    # where the comparison policy itself accepts every reading (when not by the fields above)
    compared_by: str = ""

    @property
    def detected(self) -> bool:
        return self.depends is not None

    @property
    def compared(self) -> bool:
        return self.alternative is not None or self.error_codes is not None or bool(self.compared_by)

    def decided_in(self, tool: Tool) -> bool:
        return any(words in line for words in self.decided_by for line in tool.contract.semantics)

    def applies_to(self, tool: Tool) -> bool:
        if self.decided_in(tool):
            return False
        if self.applies is not None:
            return self.applies(tool)
        contract = tool.contract.document()
        return any(quote.found_in(contract) for quote in self.quotes)


@dataclass(frozen=True)
class Behaviour:
    """What one reading does with an input: an output, or a rejection with a code."""

    reading: str  # "oracle" or the open-point choices, e.g. "A1: totals count hypothesis tokens only"
    output: dict | None = None
    error_code: str | None = None
    error_message: str = ""
