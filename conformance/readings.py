"""The reasonable readings of the contracts' open points (reports/ambiguities.md).

The oracle implements one reading of each open point. A correct implementation
may have chosen another, so the harness computes what every reasonable reading
answers and accepts any of them (compare.py). Each reading is the oracle with
one step swapped, never a second implementation:

* A1 (BLEU tools): ``max_total_tokens`` / ``max_total_token_bytes`` count the
  hypothesis tokens only, instead of hypothesis + reference tokens;
* A2 (bleu-ngrams-count): the 1,000,000-byte output limit measures the most
  verbose reasonable serialisation instead of compact JSON;
* A3 (BLEU tools): lone surrogates in tokens are accepted instead of rejected;
* A4 (chrF++): the corpus sums drop a segment's hypothesis n-grams of an order
  its reference lacks, as sacreBLEU and chrF++.py do;
* A6 / A7 (error codes): any code one of the violated rules names.

``depends_on_open_point`` says which open points an input touches, so that the
fixtures and generators can show they never depend on one.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import jsonschema

import oracle
from conformance.strategies.alphabets import lowercase_unstable_code_points
from oracle import bleu_ngrams_count, chrf_plus_plus_compute
from oracle.errors import INVALID_INPUT, LIMIT_EXCEEDED, ContractError
from oracle.validation import (
    LIMIT_KEYWORDS,
    Rule,
    bleu_token_limits,
    has_lone_surrogate,
    iter_token_paths,
    load_contract_cached,
    utf8_length,
    validate,
)

BLEU_TOOLS = frozenset({"bleu-ngrams-count", "bleu-corpus-compute"})
CHRF_TOOL = "chrf-plus-plus-compute"
INTEGER_FIELDS = ("max_order", "decimals", "beta")


@dataclass(frozen=True)
class Behaviour:
    """What one reading does with an input: an output, or a rejection with a code."""

    reading: str  # "oracle" or the open-point choices, e.g. "A1: hypothesis tokens only"
    output: dict | None = None
    error_code: str | None = None
    error_message: str = ""


# --- the alternative steps ------------------------------------------------------


def hypothesis_only_totals(payload: dict, limits: dict) -> None:
    """A1, other reading: per-token bytes for every token, the totals over hypothesis tokens only."""
    unbounded_totals = {**limits, "max_total_tokens": math.inf, "max_total_token_bytes": math.inf}
    bleu_token_limits(payload, unbounded_totals)
    bleu_token_limits({"hypotheses": payload["hypotheses"], "references": []}, limits)


def most_verbose_output_size(output: dict) -> int:
    """A2, other reading: the largest serialisation a reasonable service could measure.

    Indented (2 or 4 spaces, as JSON.stringify(x, null, 2) or Python's indent=4 write it),
    non-ASCII \\u-escaped, inside the {"result": ...} envelope.
    """
    enveloped = {"result": output}
    return max(
        len(json.dumps(enveloped, indent=indent, ensure_ascii=True).encode("ascii"))
        for indent in (2, 4)
    )


def drop_orders_missing_in_reference(stats: list) -> list:
    """A4, other reading (sacreBLEU CHRF._get_match_statistics): an order the reference lacks
    contributes no hypothesis n-grams to the corpus sums."""
    return [s if s.reference > 0 else type(s)(0, 0, 0) for s in stats]


# --- running a reading ------------------------------------------------------------


@dataclass(frozen=True)
class ReadingChoice:
    count_reference_tokens: bool = True  # A1
    verbose_output_size: bool = False  # A2
    accept_lone_surrogates: bool = False  # A3
    sacrebleu_corpus_sums: bool = False  # A4
    reject_integers_written_as_floats: bool = False  # A9
    ignore_extra_references: bool = False  # A10

    def name(self) -> str:
        parts = []
        if not self.count_reference_tokens:
            parts.append("A1: totals count hypothesis tokens only")
        if self.verbose_output_size:
            parts.append("A2: output size of the most verbose serialisation")
        if self.accept_lone_surrogates:
            parts.append("A3: lone surrogates accepted")
        if self.sacrebleu_corpus_sums:
            parts.append("A4: corpus sums drop hypothesis n-grams of orders the reference lacks")
        if self.reject_integers_written_as_floats:
            parts.append("A9: 4.0 is not an integer")
        if self.ignore_extra_references:
            parts.append("A10: reference segments beyond the hypotheses ignored")
        return "; ".join(parts) or "oracle"


ORACLE_READING = ReadingChoice()
# The most accepting validation of the BLEU tools, to compute an output whatever A1 and A3 say.
LENIENT_VALIDATION = ReadingChoice(count_reference_tokens=False, accept_lone_surrogates=True)


def _bleu_rules(module, choice: ReadingChoice) -> list:
    rules = []
    for rule in module.VALIDATION:
        if isinstance(rule, Rule) and rule.name == "token limits" and not choice.count_reference_tokens:
            rule = Rule("token limits (hypothesis totals)", hypothesis_only_totals)
        if isinstance(rule, Rule) and rule.name == "no lone surrogates" and choice.accept_lone_surrogates:
            continue
        rules.append(rule)
    return rules


def _run_bleu(tool_id: str, version: str, payload: Any, choice: ReadingChoice, size_limit: bool = True) -> dict:
    module = oracle.TOOLS[(tool_id, version)]
    validate(tool_id, version, payload, _bleu_rules(module, choice))
    limits = load_contract_cached(tool_id, version)["limits"]
    if "max_output_bytes" not in limits:
        return module.compute(payload, limits)
    output = module.compute(payload, {**limits, "max_output_bytes": math.inf})
    size = most_verbose_output_size(output) if choice.verbose_output_size else bleu_ngrams_count.output_size(output)
    if size_limit and size > limits["max_output_bytes"]:
        raise ContractError(LIMIT_EXCEEDED, f"detail: the output would be {size} bytes under reading {choice.name()!r}")
    return output


def _run_chrf_sacrebleu_sums(tool_id: str, version: str, payload: Any) -> dict:
    """The oracle's output with score and score_fraction from the A4 variant sums."""
    output = oracle.execute(tool_id, version, payload)
    chrf = chrf_plus_plus_compute
    hypotheses, references = payload["hypotheses"], payload["references"]
    if output["lowercase"]:
        hypotheses, references = [h.lower() for h in hypotheses], [r.lower() for r in references]
    per_segment = [drop_orders_missing_in_reference(chrf.segment_statistics(h, r))
                   for h, r in zip(hypotheses, references)]
    corpus = 100 * chrf.f_score(chrf.corpus_statistics(per_segment), output["beta"])
    return {**output, "score": chrf.six_decimals(corpus), "score_fraction": chrf.fraction_text(corpus)}


def _run(tool_id: str, version: str, payload: Any, choice: ReadingChoice) -> Behaviour:
    try:
        if choice.reject_integers_written_as_floats and _integer_written_as_float(tool_id, version, payload):
            raise ContractError(INVALID_INPUT, "an integer field holds a number written with a fraction or exponent")
        if choice.ignore_extra_references:
            payload = {**payload, "references": payload["references"][: len(payload["hypotheses"])]}
        if tool_id in BLEU_TOOLS and choice != ORACLE_READING:
            output = _run_bleu(tool_id, version, payload, choice)
        elif tool_id == CHRF_TOOL and choice.sacrebleu_corpus_sums:
            output = _run_chrf_sacrebleu_sums(tool_id, version, payload)
        else:
            output = oracle.execute(tool_id, version, payload)
    except ContractError as error:
        return Behaviour(choice.name(), error_code=error.code, error_message=error.message)
    return Behaviour(choice.name(), output=output)


# Each open point with a second reading to compute: (ReadingChoice field, id, oracle's value first).
READING_AXES = [
    ("count_reference_tokens", "A1", (True, False)),
    ("verbose_output_size", "A2", (False, True)),
    ("accept_lone_surrogates", "A3", (False, True)),
    ("sacrebleu_corpus_sums", "A4", (False, True)),
    ("reject_integers_written_as_floats", "A9", (False, True)),
    ("ignore_extra_references", "A10", (False, True)),
]


def _choices(tool_id: str, open_points: Iterable[str]) -> list[ReadingChoice]:
    """The oracle's reading first, then every combination of the other readings of the touched points."""
    touched = [(name, values) for name, point, values in READING_AXES if point in set(open_points)]
    names = [name for name, _ in touched]
    return [ReadingChoice(**dict(zip(names, combo))) for combo in itertools.product(*(v for _, v in touched))]


def behaviours(tool_id: str, version: str, payload: Any) -> list[Behaviour]:
    """What every reasonable reading does with the input, the oracle's first, duplicates removed."""
    found: list[Behaviour] = []
    for choice in _choices(tool_id, depends_on_open_point(tool_id, version, payload)):
        behaviour = _run(tool_id, version, payload, choice)
        if not any(b.output == behaviour.output and b.error_code == behaviour.error_code for b in found):
            found.append(behaviour)
    return found


def expected_outputs(tool_id: str, version: str, payload: Any) -> list[dict]:
    """The outputs of the readings that answer: the oracle's first (when the oracle answers),
    then those of the other readings where they differ. Empty when every reading rejects."""
    return [b.output for b in behaviours(tool_id, version, payload) if b.output is not None]


# --- error codes (A6, A7, and the rejecting readings) ------------------------------


@functools.lru_cache(maxsize=None)
def _input_validator(tool_id: str, version: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_contract_cached(tool_id, version)["input_schema"])


def _schema_codes(tool_id: str, version: str, payload: Any) -> set[str]:
    """The code of every schema violation; a keyword mirroring a named limit allows both (A6)."""
    codes = set()
    for error in _input_validator(tool_id, version).iter_errors(payload):
        codes.add(INVALID_INPUT)
        if error.validator in LIMIT_KEYWORDS:
            codes.add(LIMIT_EXCEEDED)
    return codes


def _well_formed_part(payload: dict) -> dict:
    """A BLEU input with every malformed piece dropped (a token that is not a string, a segment
    or reference that is not a list), so each prose rule still judges the rest: an implementation
    may check a limit before the schema (A7). Dropping pieces can only add invalid_input, which
    the schema violation that made them malformed allows anyway."""
    def tokens(value: Any) -> list[str]:
        return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []

    hypotheses, references = payload.get("hypotheses"), payload.get("references")
    return {
        **payload,
        "hypotheses": [tokens(h) for h in hypotheses] if isinstance(hypotheses, list) else [],
        "references": [[tokens(r) for r in segment] if isinstance(segment, list) else [] for segment in references]
        if isinstance(references, list) else [],
    }


def _rule_codes(tool_id: str, version: str, payload: Any) -> set[str]:
    """The code of every prose rule the input breaks, each rule checked on its own (A7)."""
    if not isinstance(payload, dict):
        return set()
    codes = set()
    module = oracle.TOOLS[(tool_id, version)]
    for rule in module.VALIDATION:
        if isinstance(rule, Rule):
            try:
                rule.check(tool_id, version, _well_formed_part(payload))
            except ContractError as error:
                codes.add(error.code)
    return codes


def acceptable_error_codes(tool_id: str, version: str, payload: Any) -> set[str]:
    """Every error code some reasonable reading may give for a rejected input.

    The oracle's code and those of the other readings of A1-A4; where one violation is both a
    schema rule and a named limit, both codes (A6); for the BLEU tools, which state no
    validation order, the code of every rule the input breaks (A7). chrF++ states its order,
    so there only its first violation counts, A6 aside.
    """
    codes = {b.error_code for b in behaviours(tool_id, version, payload) if b.error_code}
    if not oracle.implemented(tool_id, version):
        return codes
    if tool_id in BLEU_TOOLS:
        codes |= _schema_codes(tool_id, version, payload) | _rule_codes(tool_id, version, payload)
    elif tool_id == CHRF_TOOL and _segments_over_limit(tool_id, version, payload):
        codes |= {INVALID_INPUT, LIMIT_EXCEEDED}
    if tool_id == CHRF_TOOL and "A14" in depends_on_open_point(tool_id, version, payload):
        codes |= {INVALID_INPUT, LIMIT_EXCEEDED}
    return codes


def _segments_over_limit(tool_id: str, version: str, payload: Any) -> bool:
    limit = load_contract_cached(tool_id, version)["limits"]["max_segments"]
    return isinstance(payload, dict) and any(
        isinstance(payload.get(key), list) and len(payload[key]) > limit for key in ("hypotheses", "references")
    )


# --- which open points an input touches ---------------------------------------------


def depends_on_open_point(tool_id: str, version: str, payload: Any) -> list[str]:
    """The ids of the open points (reports/ambiguities.md) whose readings may treat this input differently."""
    if not isinstance(payload, dict):
        return []
    touched = []
    for point, detector in DETECTORS.items():
        try:
            if detector(tool_id, version, payload):
                touched.append(point)
        except (TypeError, AttributeError, KeyError, ValueError):
            pass  # malformed input: the schema rejects it under every reading
    return touched


def _bleu_token_lists_ok(tool_id: str, payload: dict) -> bool:
    if tool_id not in BLEU_TOOLS:
        return False
    hyps, refs = payload.get("hypotheses"), payload.get("references")
    return (
        isinstance(hyps, list)
        and isinstance(refs, list)
        and all(isinstance(h, list) and all(isinstance(t, str) for t in h) for h in hyps)
        and all(isinstance(rs, list) and all(isinstance(r, list) and all(isinstance(t, str) for t in r) for r in rs)
                for rs in refs)
    )


def _token_totals_between_readings(tool_id: str, version: str, payload: dict) -> bool:
    """A1: the hypothesis tokens alone are within a total limit, hypotheses plus references are not."""
    if not _bleu_token_lists_ok(tool_id, payload):
        return False
    limits = load_contract_cached(tool_id, version)["limits"]
    hypothesis_tokens = [t for h in payload["hypotheses"] for t in h]
    all_tokens = [token for _, token in iter_token_paths(payload)]
    count_between = len(hypothesis_tokens) <= limits["max_total_tokens"] < len(all_tokens)
    hypothesis_bytes = sum(map(utf8_length, hypothesis_tokens))
    all_bytes = sum(map(utf8_length, all_tokens))
    bytes_between = hypothesis_bytes <= limits["max_total_token_bytes"] < all_bytes
    return count_between or bytes_between


def _output_size_between_serialisations(tool_id: str, version: str, payload: dict) -> bool:
    """A2: compact JSON fits the output limit and the most verbose serialisation does not."""
    if tool_id != bleu_ngrams_count.TOOL_ID or payload.get("detail") != "ngrams":
        return False  # "totals" and "segments" outputs stay far below the limit
    try:
        output = _run_bleu(tool_id, version, payload, LENIENT_VALIDATION, size_limit=False)
    except ContractError:
        return False  # rejected for another reason under every reading
    limit = load_contract_cached(tool_id, version)["limits"]["max_output_bytes"]
    return bleu_ngrams_count.output_size(output) <= limit < most_verbose_output_size(output)


def _bleu_lone_surrogates(tool_id: str, version: str, payload: dict) -> bool:
    """A3: a BLEU token holding a lone surrogate."""
    return _bleu_token_lists_ok(tool_id, payload) and any(
        has_lone_surrogate(token) for _, token in iter_token_paths(payload)
    )


def _chrf_corpus_sums_differ(tool_id: str, version: str, payload: dict) -> bool:
    """A4: the contract's corpus sums and sacreBLEU's give a different corpus score."""
    if tool_id != CHRF_TOOL or len(payload.get("hypotheses", [])) < 2:
        return False
    try:
        contract = oracle.execute(tool_id, version, payload)
    except ContractError:
        return False
    return _run_chrf_sacrebleu_sums(tool_id, version, payload)["score_fraction"] != contract["score_fraction"]


# A5: toLowerCase follows the runtime's Unicode version. The table of code points whose
# lowercase mapping or Final_Sigma context differs between the oracle's Unicode version and a
# JavaScript runtime's (oracle/data/lowercase_unicode_differences.json, read by the strategies'
# alphabets) plus every code point unassigned here. Without the table, a conservative rule:
# beside a capital sigma only ASCII, Latin-1 letters, combining marks and Greek.
_SIGMA_SAFE_RANGES = ((0x0000, 0x007F), (0x00C0, 0x00FF), (0x0300, 0x03FF))


def lowercase_is_version_dependent(text: str) -> bool:
    listed = lowercase_unstable_code_points()
    for ch in text:
        cp = ord(ch)
        if cp in listed or (unicodedata.category(ch) == "Cn" and not 0xD800 <= cp <= 0xDFFF):
            return True
    if "\u03a3" in text and not listed:
        return any(not any(lo <= ord(ch) <= hi for lo, hi in _SIGMA_SAFE_RANGES) for ch in text)
    return False


def _lowercase_version_dependent(tool_id: str, version: str, payload: dict) -> bool:
    """A5: lowercase=true with a code point whose lowercasing depends on the Unicode version."""
    if tool_id != CHRF_TOOL or payload.get("lowercase") is not True:
        return False
    texts = [t for key in ("hypotheses", "references") for t in payload.get(key, []) if isinstance(t, str)]
    return any(lowercase_is_version_dependent(t) for t in texts)


def _integer_written_as_float(tool_id: str, version: str, payload: dict) -> bool:
    """A9: an integer field written with a fraction or exponent (4.0): JSON Schema and a
    JavaScript service take it as 4, a strictly typed parser may reject it."""
    return any(isinstance(payload.get(key), float) and payload[key].is_integer() for key in INTEGER_FIELDS)


def _bleu_more_references_than_hypotheses(tool_id: str, version: str, payload: dict) -> bool:
    """A10: the BLEU contracts never say the segment counts must be equal; extra reference
    segments (no hypothesis to score) might be ignored by a reasonable implementation."""
    if tool_id not in BLEU_TOOLS:
        return False
    hyps, refs = payload.get("hypotheses"), payload.get("references")
    return isinstance(hyps, list) and isinstance(refs, list) and len(refs) > len(hyps)


def _lone_surrogate_byte_count_matters(tool_id: str, version: str, payload: dict) -> bool:
    """A14: chrF++ checks the text bytes before lone surrogates, but a lone surrogate has no UTF-8
    length: counted as 3 bytes (its U+FFFD replacement) or 0, the code may differ."""
    if tool_id != CHRF_TOOL:
        return False
    texts = [t for key in ("hypotheses", "references") for t in payload.get(key, []) if isinstance(t, str)]
    if not any(has_lone_surrogate(t) for t in texts):
        return False
    limit = load_contract_cached(tool_id, version)["limits"]["max_text_bytes"]
    with_surrogates = sum(map(utf8_length, texts))
    without = sum(len(ch.encode("utf-8", "ignore")) for t in texts for ch in t)
    return without <= limit < with_surrogates


# Open point id -> the predicate recognising the inputs it is about (reports/ambiguities.md).
DETECTORS: dict[str, Callable[[str, str, dict], bool]] = {
    "A1": _token_totals_between_readings,
    "A2": _output_size_between_serialisations,
    "A3": _bleu_lone_surrogates,
    "A4": _chrf_corpus_sums_differ,
    "A5": _lowercase_version_dependent,
    "A9": _integer_written_as_float,
    "A10": _bleu_more_references_than_hypotheses,
    "A14": _lone_surrogate_byte_count_matters,
}
