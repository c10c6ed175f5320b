"""One validation layer, driven by the contract file.

A tool declares an ordered list of rules. ``Schema("x")`` checks property ``x``
against the contract's ``input_schema`` with a JSON Schema 2020-12 validator;
the other rules are the short list of limits and semantic rules the contract
states in prose. The first rule that fails decides the error, so a tool whose
contract fixes a validation order (chrF++) lists its rules in that order.

Error codes: a schema keyword that mirrors a named limit (``maxItems`` for
segments and references, ``maxLength`` for tokens) is ``limit_exceeded``; every
other schema violation is ``invalid_input``. Every message starts with the
offending path, e.g. ``references[3][0][2]``.
"""

from __future__ import annotations

import functools
from itertools import chain
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import fastjsonschema
import jsonschema

from oracle.contracts import load_contract
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED, ContractError

# Schema keywords whose bound is one of the contract's named limits.
LIMIT_KEYWORDS = frozenset({"maxItems", "maxLength"})
# Which violation is reported first within one property: the shallowest path, then the
# first in document order, then this keyword order (chrF++: "array, at most 256 segments, at least one, strings").
_KEYWORD_RANK = {"type": 0, "maxItems": 1, "minItems": 2}


def format_path(parts: Iterable[Any]) -> str:
    """``("references", 3, 0, 2)`` -> ``references[3][0][2]``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "input"


def utf8_length(text: str) -> int:
    """UTF-8 bytes of a string; a lone surrogate counts 3 bytes, as its U+FFFD replacement would."""
    return len(text.encode("utf-8", "surrogatepass"))


def has_lone_surrogate(text: str) -> bool:
    """Strict UTF-8 encoding fails exactly on the surrogate code points (a lone one, as JSON can carry)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


_TYPE_WORDS = {
    "array": "an array",
    "object": "an object",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
}


def _describe(error: jsonschema.ValidationError) -> str:
    """A short message that never echoes a (possibly huge) instance."""
    keyword, bound, instance = error.validator, error.validator_value, error.instance
    if keyword == "type":
        return f"must be {_TYPE_WORDS.get(bound, bound)}, got {_json_type(instance)}"
    if keyword == "maxItems":
        return f"has {len(instance)} items, more than the maximum {bound}"
    if keyword == "minItems":
        return f"has {len(instance)} items, fewer than the minimum {bound}"
    if keyword == "maxLength":
        return f"has {len(instance)} code points, more than the maximum {bound}"
    if keyword == "minLength":
        return f"has {len(instance)} code points, fewer than the minimum {bound}"
    if keyword == "minimum":
        return f"is {instance}, less than the minimum {bound}"
    if keyword == "maximum":
        return f"is {instance}, more than the maximum {bound}"
    if keyword == "enum":
        return f"must be one of {', '.join(map(repr, bound))}, got {_short_repr(instance)}"
    return error.message if len(error.message) <= 200 else f"violates {keyword}"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a non-finite number" if value != value or value in (float("inf"), float("-inf")) else "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a non-JSON value ({type(value).__name__})"


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class Schema:
    """Check one property against its subschema of the contract's input_schema."""

    prop: str

    def check(self, tool_id: str, version: str, payload: dict) -> None:
        if self.prop not in payload:
            return  # optional and omitted: required keys were checked before
        validator = _property_validator(tool_id, version, self.prop)
        errors = list(validator.iter_errors(payload[self.prop]))
        if not errors:
            return
        # the shallowest violation, then the first in document order, then by keyword rank
        first = min(errors, key=lambda e: (len(e.absolute_path), [(isinstance(p, str), p) for p in e.absolute_path],
                                           _KEYWORD_RANK.get(e.validator, 9)))
        code = LIMIT_EXCEEDED if first.validator in LIMIT_KEYWORDS else INVALID_INPUT
        path = format_path([self.prop, *first.absolute_path])
        raise ContractError(code, f"{path}: {_describe(first)}")


@dataclass(frozen=True)
class Rule:
    """A limit or semantic rule stated in the contract's prose."""

    name: str
    check_fn: Callable[[dict, dict], None]  # (payload, limits) -> None or raises

    def check(self, tool_id: str, version: str, payload: dict) -> None:
        self.check_fn(payload, load_contract_cached(tool_id, version)["limits"])


@functools.lru_cache(maxsize=None)
def load_contract_cached(tool_id: str, version: str) -> dict:
    return load_contract(tool_id, version)


@functools.lru_cache(maxsize=None)
def _property_validator(tool_id: str, version: str, prop: str) -> jsonschema.Draft202012Validator:
    schema = load_contract_cached(tool_id, version)["input_schema"]["properties"][prop]
    return jsonschema.Draft202012Validator(schema)


def check_object_shape(tool_id: str, version: str, payload: Any) -> None:
    """Plain object, then unknown keys, then missing keys (chrF++ states this order)."""
    schema = load_contract_cached(tool_id, version)["input_schema"]
    if not isinstance(payload, dict):
        raise ContractError(INVALID_INPUT, f"input: must be a JSON object, got {_json_type(payload)}")
    known = schema.get("properties", {})
    for key in payload:
        if not isinstance(key, str) or key not in known:
            allowed = ", ".join(known)
            # the key itself is the path (cut short: it comes from the caller and may be huge)
            name = key[:60] + "..." if isinstance(key, str) and len(key) > 60 else key
            raise ContractError(INVALID_INPUT, f"{format_path([name])}: unknown field (allowed: {allowed})")
    for key in schema.get("required", []):
        if key not in payload:
            raise ContractError(INVALID_INPUT, f"{key}: required field is missing")


@functools.lru_cache(maxsize=None)
def _whole_input_accepts(tool_id: str, version: str) -> Callable[[Any], Any]:
    return fastjsonschema.compile(load_contract_cached(tool_id, version)["input_schema"])


def _schema_accepts(tool_id: str, version: str, payload: dict) -> bool:
    """A compiled validator answers "valid" for the whole input a hundred times faster.

    jsonschema (2020-12) stays the authority: it runs, property by property in the
    tool's order, whenever the fast check does not accept, and it writes the error.
    tests/test_validation.py checks that both validators agree on generated inputs.
    """
    try:
        _whole_input_accepts(tool_id, version)(payload)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def validate(tool_id: str, version: str, payload: Any, rules: Iterable[Schema | Rule]) -> None:
    check_object_shape(tool_id, version, payload)
    schema_ok = _schema_accepts(tool_id, version, payload)
    for rule in rules:
        if isinstance(rule, Schema) and schema_ok:
            continue
        rule.check(tool_id, version, payload)


# ---------------------------------------------------------------------------
# Semantic rules shared by the tools. Each names the offending path.


def equal_segment_counts(payload: dict, limits: dict) -> None:
    hyps, refs = payload["hypotheses"], payload["references"]
    if len(hyps) != len(refs):
        raise ContractError(
            INVALID_INPUT,
            f"references: has {len(refs)} segments but hypotheses has {len(hyps)}; they must be equal",
        )


def iter_token_paths(payload: dict):
    """Every token of a BLEU input with its path: hypotheses first, then references."""
    for i, hypothesis in enumerate(payload["hypotheses"]):
        for j, token in enumerate(hypothesis):
            yield ("hypotheses", i, j), token
    for i, segment_refs in enumerate(payload["references"]):
        for k, reference in enumerate(segment_refs):
            for j, token in enumerate(reference):
                yield ("references", i, k, j), token


def all_tokens(payload: dict) -> list[str]:
    """Every token of a BLEU input, in the order of iter_token_paths, without the paths (the fast pass)."""
    hypothesis_tokens = chain.from_iterable(payload["hypotheses"])
    reference_tokens = chain.from_iterable(chain.from_iterable(payload["references"]))
    return [*hypothesis_tokens, *reference_tokens]


def bleu_token_limits(payload: dict, limits: dict) -> None:
    """max_token_bytes, max_total_tokens, max_total_token_bytes.

    The totals count hypothesis and reference tokens: the contract does not say
    which (an open point in reports/ambiguities.md); the suite never tests an
    input on which the readings disagree.
    """
    max_token_bytes = limits["max_token_bytes"]
    sizes = [len(token.encode("utf-8", "surrogatepass")) for token in all_tokens(payload)]
    if sizes and max(sizes) > max_token_bytes:
        # the first token over the limit, found again with its path for the message
        path, size = next(
            (path, size)
            for (path, _), size in zip(iter_token_paths(payload), sizes)
            if size > max_token_bytes
        )
        raise ContractError(
            LIMIT_EXCEEDED,
            f"{format_path(path)}: token has {size} UTF-8 bytes, more than max_token_bytes {max_token_bytes}",
        )
    if len(sizes) > limits["max_total_tokens"]:
        raise ContractError(
            LIMIT_EXCEEDED,
            f"input: {len(sizes)} tokens in hypotheses and references, more than max_total_tokens {limits['max_total_tokens']}",
        )
    if sum(sizes) > limits["max_total_token_bytes"]:
        raise ContractError(
            LIMIT_EXCEEDED,
            f"input: tokens total {sum(sizes)} UTF-8 bytes, more than max_total_token_bytes {limits['max_total_token_bytes']}",
        )


def bleu_no_lone_surrogates(payload: dict, limits: dict) -> None:
    """A token must be text that UTF-8 can carry (an open point for the BLEU tools)."""
    # One strict encoding of all tokens at once fails exactly when some token has a lone
    # surrogate (Python strings never pair two separate surrogates); only then find which.
    if not has_lone_surrogate("".join(all_tokens(payload))):
        return
    for path, token in iter_token_paths(payload):
        if has_lone_surrogate(token):
            raise ContractError(INVALID_INPUT, f"{format_path(path)}: contains a lone surrogate")
