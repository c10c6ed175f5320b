"""Reference oracle for the MT-metric tool contracts.

``execute(tool_id, version, payload)`` returns the output object or raises
``ContractError`` with ``.code`` and a ``.message`` naming the offending path.
"""

from __future__ import annotations

from typing import Any

from oracle import bleu_corpus_compute, bleu_ngrams_count, chrf_plus_plus_compute
from oracle.contracts import available, load_contract
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED, NOT_FOUND, ContractError
from oracle.validation import load_contract_cached, validate

__all__ = ["execute", "ContractError", "TOOLS", "implemented", "load_contract", "available",
           "INVALID_INPUT", "LIMIT_EXCEEDED", "NOT_FOUND"]

# (tool_id, version) -> the module implementing it (VALIDATION rules + compute).
TOOLS = {
    (module.TOOL_ID, module.VERSION): module
    for module in (bleu_ngrams_count, bleu_corpus_compute, chrf_plus_plus_compute)
}


def implemented(tool_id: str, version: str) -> bool:
    return (tool_id, version) in TOOLS


def execute(tool_id: str, version: str, payload: Any) -> dict:
    if not implemented(tool_id, version):
        load_contract(tool_id, version)  # a missing contract says so
        raise ContractError(NOT_FOUND, f"the oracle does not implement {tool_id}@{version}")
    module = TOOLS[(tool_id, version)]
    validate(tool_id, version, payload, module.VALIDATION)
    # the tools only read the payload ("Inputs are never mutated"; tests hold them to it)
    return module.compute(payload, load_contract_cached(tool_id, version)["limits"])
