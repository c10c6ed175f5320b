"""A7: the BLEU tools state no validation order."""

from __future__ import annotations

from typing import Any

from conformance.open_points.inputs import well_formed_bleu_part
from conformance.open_points.model import OpenPoint, Quote
from oracle.errors import INVALID_INPUT, ContractError
from oracle.tool import Tool
from oracle.validation import Rule

STATED_ORDER = "Validation order"


def validation_order_stated(tool: Tool) -> bool:
    return any(STATED_ORDER in line for line in tool.contract.semantics)


def any_rule_code(tool: Tool, payload: Any) -> set[str]:
    """The code of every rule the input breaks, each checked on its own: invalid_input for any
    schema violation, and each prose rule's code judged on the well-formed part of the input
    (an implementation may check a limit before the schema)."""
    codes = {INVALID_INPUT} if any(True for _ in tool.contract.input_validator.iter_errors(payload)) else set()
    if not isinstance(payload, dict):
        return codes
    part = well_formed_bleu_part(payload)
    for rule in tool.validation:
        if isinstance(rule, Rule):
            try:
                rule.check(part, tool.contract)
            except ContractError as error:
                codes.add(error.code)
    return codes


POINT = OpenPoint(
    id="A7",
    title="The BLEU tools state no validation order",
    quotes=(Quote("semantics", "Validation order: plain object, unknown keys, missing keys"),),
    open="chrF++ fixes the order of its checks; the BLEU contracts do not, so an input breaking two rules may "
    "get the code of either.",
    readings=("any order of the checks",),
    oracle_reading="schema (property by property), equal segment counts, lone surrogates, token limits",
    avoidance="Generated invalid inputs break exactly one rule. For the BLEU tools the comparison accepts the "
    "code of any rule the input breaks (open_points.acceptable_error_codes).",
    applies=lambda tool: True,
    decided_by=(STATED_ORDER,),
    error_codes=any_rule_code,
)
