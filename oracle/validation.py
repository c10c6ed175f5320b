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

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

import fastjsonschema
import jsonschema

from oracle.contracts import Contract
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
        return f"must be {_TYPE_WORDS.get(bound, bound)}, got {json_type(instance)}"
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


describe_violation = _describe  # the plain words of a schema violation, for reports of outputs too


def json_type(value: Any) -> str:
    """The JSON type of a value in words ("an integer", "null"), for messages."""
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


@dataclass(frozen=True, eq=False)
class Schema:
    """Check one property against its subschema of the contract's input_schema.

    ``leave``: schema keywords this check passes over because the contract checks them later,
    as limits (a contract that states "then the limits" after the fields).
    """

    prop: str
    leave: frozenset[str] = frozenset()

    def violation(self, payload: dict[str, Any], contract: Contract) -> jsonschema.ValidationError | None:
        """The violation this rule reports (the keyword the reports name), or None."""
        if self.prop not in payload:
            return None  # optional and omitted: required keys were checked before
        errors = [
            error
            for error in contract.property_validator(self.prop).iter_errors(payload[self.prop])
            if error.validator not in self.leave
        ]
        if not errors:
            return None
        # the shallowest violation, then the first in document order, then by keyword rank
        return min(
            errors,
            key=lambda e: (
                len(e.absolute_path),
                [(isinstance(p, str), p) for p in e.absolute_path],
                _KEYWORD_RANK.get(e.validator, 9),
            ),
        )

    def check(self, payload: dict[str, Any], contract: Contract) -> None:
        try:
            first = self.violation(payload, contract)
        except RecursionError:  # deeper than Python can walk: deeper than any schema of these contracts
            raise ContractError(
                INVALID_INPUT, f"{format_path([self.prop])}: nested too deeply for its schema"
            ) from None
        if first is None:
            return
        code = LIMIT_EXCEEDED if first.validator in LIMIT_KEYWORDS else INVALID_INPUT
        path = format_path([self.prop, *first.absolute_path])
        raise ContractError(code, f"{path}: {_describe(first)}")


@dataclass(frozen=True, eq=False)
class Rule:
    """A limit or semantic rule stated in the contract's prose.

    Rules are compared by identity: a reading of an open point that swaps a rule names the
    rule object itself (``Tool.replacing``), never its name.
    """

    name: str
    check_fn: Callable[[dict[str, Any], Mapping[str, int]], None]  # (payload, limits) -> None or raises

    def check(self, payload: dict[str, Any], contract: Contract) -> None:
        self.check_fn(payload, contract.limits)


def check_object_shape(contract: Contract, payload: Any) -> None:
    """Plain object, then unknown keys, then missing keys (chrF++ states this order)."""
    schema = contract.input_schema
    if not isinstance(payload, dict):
        raise ContractError(INVALID_INPUT, f"input: must be a JSON object, got {json_type(payload)}")
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


def schema_accepts(contract: Contract, payload: Any) -> bool:
    """A compiled validator answers "valid" for the whole input a hundred times faster.

    jsonschema (2020-12) stays the authority: it runs, property by property in the
    tool's order, whenever the fast check does not accept, and it writes the error.
    tests/test_validation.py checks that both validators agree on generated inputs.
    """
    try:
        contract.input_accepts(payload)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def validate(contract: Contract, payload: Any, rules: Iterable[Schema | Rule]) -> None:
    check_object_shape(contract, payload)
    schema_ok = schema_accepts(contract, payload)
    for rule in rules:
        if isinstance(rule, Schema) and schema_ok:
            continue
        rule.check(payload, contract)


# ---------------------------------------------------------------------------
# Semantic rules shared by the tools. Each names the offending path.


def equal_counts(first: str, second: str) -> Rule:
    """ "equal segment counts": two lists that pair up by index have the same length."""

    def check(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
        if len(payload[first]) != len(payload[second]):
            raise ContractError(
                INVALID_INPUT,
                f"{second}: has {len(payload[second])} segments but {first} has {len(payload[first])}; "
                "they must be equal",
            )

    return Rule("equal segment counts", check)


def iter_token_paths(payload: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every token of a BLEU input with its path: hypotheses first, then references."""
    for i, hypothesis in enumerate(payload["hypotheses"]):
        for j, token in enumerate(hypothesis):
            yield ("hypotheses", i, j), token
    for i, segment_refs in enumerate(payload["references"]):
        for k, reference in enumerate(segment_refs):
            for j, token in enumerate(reference):
                yield ("references", i, k, j), token


def all_tokens(payload: dict[str, Any]) -> list[str]:
    """Every token of a BLEU input, in the order of iter_token_paths, without the paths (the fast pass)."""
    hypothesis_tokens = chain.from_iterable(payload["hypotheses"])
    reference_tokens = chain.from_iterable(chain.from_iterable(payload["references"]))
    return [*hypothesis_tokens, *reference_tokens]


def token_limits(
    tokens: list[str], paths: Callable[[], Iterator[tuple[tuple[str | int, ...], str]]], limits: Mapping[str, int]
) -> None:
    """max_token_bytes (the first token over it, by path), then max_total_tokens, then max_total_token_bytes."""
    max_token_bytes = limits["max_token_bytes"]
    sizes = [len(token.encode("utf-8", "surrogatepass")) for token in tokens]
    if sizes and max(sizes) > max_token_bytes:
        # the first token over the limit, found again with its path for the message
        path, size = next((path, size) for (path, _), size in zip(paths(), sizes) if size > max_token_bytes)
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


def bleu_token_limits(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
    """max_token_bytes, max_total_tokens, max_total_token_bytes.

    The totals count hypothesis and reference tokens: the contract does not say
    which (an open point in reports/ambiguities.md); the suite never tests an
    input on which the readings disagree.
    """
    token_limits(all_tokens(payload), lambda: iter_token_paths(payload), limits)


def bleu_no_lone_surrogates(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
    """A token must be text that UTF-8 can carry (an open point for the BLEU tools)."""
    # One strict encoding of all tokens at once fails exactly when some token has a lone
    # surrogate (Python strings never pair two separate surrogates); only then find which.
    if not has_lone_surrogate("".join(all_tokens(payload))):
        return
    for path, token in iter_token_paths(payload):
        if has_lone_surrogate(token):
            raise ContractError(INVALID_INPUT, f"{format_path(path)}: contains a lone surrogate")


EQUAL_SEGMENT_COUNTS = equal_counts("hypotheses", "references")
BLEU_NO_LONE_SURROGATES = Rule("no lone surrogates", bleu_no_lone_surrogates)
BLEU_TOKEN_LIMITS = Rule("token limits", bleu_token_limits)


def chrf_text_limits(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
    """ "total UTF-8 bytes of all texts at most 65536", then "lone surrogates"."""
    texts = [("hypotheses", i, t) for i, t in enumerate(payload["hypotheses"])]
    texts += [("references", i, t) for i, t in enumerate(payload["references"])]
    total = sum(utf8_length(t) for _, _, t in texts)
    if total > limits["max_text_bytes"]:
        raise ContractError(
            LIMIT_EXCEEDED,
            f"input: hypotheses and references total {total} UTF-8 bytes, more than max_text_bytes {limits['max_text_bytes']}",
        )
    for field, i, text in texts:
        if has_lone_surrogate(text):
            raise ContractError(INVALID_INPUT, f"{field}[{i}]: contains a lone surrogate")


CHRF_TEXT_LIMITS = Rule("text bytes, then lone surrogates", chrf_text_limits)


# ---------------------------------------------------------------------------
# Rules of the one-segment BLEU tools ("hypothesis": tokens, "references": token lists).


def sentence_token_paths(payload: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    for j, token in enumerate(payload["hypothesis"]):
        yield ("hypothesis", j), token
    for k, reference in enumerate(payload["references"]):
        for j, token in enumerate(reference):
            yield ("references", k, j), token


def lone_surrogates_in(field: str) -> Rule:
    """A field of strings (or of lists of strings) must be "free of lone surrogates"."""

    def check(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
        if field not in payload:
            return
        value = payload[field]
        rows = [[(field, j), item] for j, item in enumerate(value)]
        if value and isinstance(value[0], list):
            rows = [[(field, k, j), item] for k, row in enumerate(value) for j, item in enumerate(row)]
        if not has_lone_surrogate("".join(item for _, item in rows)):
            return
        path = next(path for path, item in rows if has_lone_surrogate(item))
        raise ContractError(INVALID_INPUT, f"{format_path(path)}: contains a lone surrogate")

    return Rule(f"{field} free of lone surrogates", check)


def sentence_limits(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
    """ "then the limits: at most 8 references, each token at most 128 UTF-8 bytes, at most 50000
    tokens in total, at most 1048576 UTF-8 bytes of tokens in total"."""
    references, most = payload["references"], limits["max_references_per_segment"]
    if len(references) > most:
        raise ContractError(
            LIMIT_EXCEEDED, f"references: has {len(references)} references, more than max_references_per_segment {most}"
        )
    tokens = [*payload["hypothesis"], *chain.from_iterable(references)]
    token_limits(tokens, lambda: sentence_token_paths(payload), limits)


SENTENCE_LIMITS = Rule("references, token bytes, total tokens, total token bytes", sentence_limits)


# ---------------------------------------------------------------------------
# Rules of the length-only tool (candidate_lengths, reference_lengths).


def length_limits(payload: dict[str, Any], limits: Mapping[str, int]) -> None:
    """ "then the limits: at most 1000 segments, at most 8 reference lengths per segment, every
    length at most 1048576"."""
    candidates, references = payload["candidate_lengths"], payload["reference_lengths"]
    if len(candidates) > limits["max_segments"]:
        raise ContractError(
            LIMIT_EXCEEDED,
            f"candidate_lengths: has {len(candidates)} segments, more than max_segments {limits['max_segments']}",
        )
    for i, lengths in enumerate(references):
        if len(lengths) > limits["max_references_per_segment"]:
            raise ContractError(
                LIMIT_EXCEEDED,
                f"reference_lengths[{i}]: has {len(lengths)} reference lengths, "
                f"more than max_references_per_segment "
                f"{limits['max_references_per_segment']}",
            )
    if max(candidates) <= limits["max_length"] and max(map(max, references)) <= limits["max_length"]:
        return
    paths: list[tuple[tuple[str | int, ...], int]] = [(("candidate_lengths", i), n) for i, n in enumerate(candidates)]
    paths += [(("reference_lengths", i, j), n) for i, lengths in enumerate(references) for j, n in enumerate(lengths)]
    for path, length in paths:
        if length > limits["max_length"]:
            raise ContractError(
                LIMIT_EXCEEDED, f"{format_path(path)}: length {length} is more than max_length {limits['max_length']}"
            )


LENGTH_LIMITS = Rule("segments, reference lengths, lengths", length_limits)


# ---------------------------------------------------------------------------
# Rules of the finished output.


@dataclass(frozen=True, eq=False)
class OutputCheck:
    """A rule of the contract about the finished output; ``check_fn(output, payload, limits)`` raises."""

    name: str
    check_fn: Callable[[dict[str, Any], dict[str, Any], Mapping[str, int]], None]


def output_size(output: dict[str, Any]) -> int:
    """UTF-8 bytes of the output as compact JSON (JSON.stringify's form) without the envelope.

    Which serialisation the limit measures is an open point (reports/ambiguities.md).
    """
    return len(json.dumps(output, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


def output_size_limit(
    output: dict[str, Any],
    payload: dict[str, Any],
    limits: Mapping[str, int],
    size: Callable[[dict[str, Any]], int] = output_size,
) -> None:
    """ "Output larger than 1,000,000 UTF-8 bytes of JSON is limit_exceeded.\""""
    limit, measured = limits["max_output_bytes"], size(output)
    if measured > limit:
        detail = payload.get("detail", "totals")
        raise ContractError(
            LIMIT_EXCEEDED,
            f"detail: the {detail!r} output would be {measured} UTF-8 bytes of JSON, more than max_output_bytes "
            f"{limit}; ask for a coarser detail level or split the corpus",
        )


OUTPUT_SIZE_LIMIT = OutputCheck("max_output_bytes", output_size_limit)
