"""Generated cases for bleu-ngrams-count: the shared BLEU families, every detail level,
and the output-size limit on both sides of open point A2."""

from __future__ import annotations

import functools
import json

from hypothesis import strategies as st

from conformance.strategies import aiming, bleu, keys, limit_forms
from conformance.strategies.aiming import accepted, option, rejected
from conformance.strategies.base import EXPECT_OUTPUT, LIMIT_EXCEEDED, Family, case, composite, limits
from oracle import bleu_ngrams_count as oracle_ngrams
from oracle.validation import output_size as compact_output_size

DETAILS = ("totals", "segments", "ngrams")

OPTIONS = st.fixed_dictionaries(
    {"max_order": bleu.MAX_ORDERS, "detail": st.one_of(st.none(), st.sampled_from(DETAILS))}
)
# Large inputs never ask for "ngrams" rows: the output would approach the size limit,
# whose serialisation is open (A2); the output-size family aims at that limit on purpose.
LARGE_INPUT_OPTIONS = st.fixed_dictionaries(
    {"max_order": bleu.MAX_ORDERS, "detail": st.one_of(st.none(), st.sampled_from(DETAILS[:2]))}
)

# Rows by first occurrence are what numeric-string tokens test: ask for them most of the time.
ROW_OPTIONS = st.fixed_dictionaries(
    {"max_order": bleu.MAX_ORDERS, "detail": st.sampled_from(("ngrams", "ngrams", "segments"))}
)

# Distinct tokens of the output-size family, by how much JSON escaping inflates them.
TOKEN_PREFIXES = ("w", "\u00e9", "\U0001f600")


def distinct_tokens(count: int, prefix: str) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def _output_size_payload(prefix: str, count: int, segments: int) -> dict:
    tokens = distinct_tokens(count, prefix)
    size = -(-count // segments)
    hypotheses = [tokens[i : i + size] for i in range(0, count, size)]
    references = [[hypothesis[: len(hypothesis) // 2]] for hypothesis in hypotheses]
    return {"hypotheses": hypotheses, "references": references, "max_order": 8, "detail": "ngrams"}


@functools.cache
def smallest_count_over(prefix: str, segments: int, max_output_bytes: int) -> int:
    """The fewest distinct tokens whose compact output exceeds the limit (the size grows with the count).

    Aims the rejected cases just past the limit, where an implementation measuring against a
    rounder number (1 MiB, 1.2 MB) still answers; the oracle's statistics size the output, with
    its own limit lifted, and tests/test_strategies.py re-measures every case independently.
    """

    def compact_size(count: int) -> int:
        return compact_output_size(oracle_ngrams.compute(_output_size_payload(prefix, count, segments)))

    low, high = 1, 4000
    while low < high:
        middle = (low + high) // 2
        if compact_size(middle) > max_output_bytes:
            high = middle
        else:
            low = middle + 1
    return low


@composite
def output_size(draw, max_output_bytes: int):
    """Detail "ngrams" with max_order 8 over distinct tokens: about 700-900 bytes of compact JSON per token.

    Over: just past the limit in the most compact serialisation (the fewest tokens that exceed
    it, plus up to 10): every reading of A2 rejects, and a rounder limit (1 MiB) would not.
    Under: at most 200 tokens give a few hundred kilobytes even indented, \\u-escaped and enveloped.
    """
    over = draw(st.booleans())
    prefix = draw(st.sampled_from(TOKEN_PREFIXES))
    segments = draw(st.integers(1, 3))
    if over:
        threshold = smallest_count_over(prefix, segments, max_output_bytes)
        count = draw(st.integers(threshold, threshold + 10))
    else:
        count = draw(st.integers(50, 200))
    payload = _output_size_payload(prefix, count, segments)
    if over:
        return case(
            payload,
            LIMIT_EXCEEDED,
            f"detail ngrams over {count} distinct tokens: more than {max_output_bytes} bytes of JSON "
            "even in the most compact serialisation",
        )
    return case(
        payload,
        EXPECT_OUTPUT,
        f"detail ngrams over {count} distinct tokens: clearly under {max_output_bytes} bytes of JSON",
    )


def compact_output_sizes(payload: dict) -> dict[str, int]:
    """The output's compact JSON in UTF-8 bytes (the oracle's reading of A2), code points and UTF-16 units."""
    text = json.dumps(oracle_ngrams.compute(payload), ensure_ascii=False, separators=(",", ":"))
    return {
        "compact JSON UTF-8 bytes": limit_forms.utf8_bytes(text),
        "compact JSON code points": len(text),
        "compact JSON UTF-16 units": limit_forms.utf16_units(text),
    }


def output_size_forms(max_output_bytes: int) -> Family:
    """Just past the limit in compact JSON, of tokens with 2- and 4-byte characters: inside in code
    points and UTF-16 units. (At the limit, every larger form is a reading of A2: not tested.)"""

    def past(prefix: str):
        def build():
            # one more than the fewest past the limit: past it by a row's width at least (a few
            # hundred bytes), still far more than code points and UTF-16 units save
            count = smallest_count_over(prefix, 1, max_output_bytes) + 1
            return (
                _output_size_payload(prefix, count, 1),
                LIMIT_EXCEEDED,
                f"detail ngrams over {count} distinct tokens starting {prefix!r}, one more than the fewest past the limit",
            )

        return build

    limit = limit_forms.Limit("max_output_bytes", max_output_bytes, compact_output_sizes)
    return limit_forms.forms_family(
        "boundary/output-size-forms",
        limit,
        (past(TOKEN_PREFIXES[1]), past(TOKEN_PREFIXES[2])),
        tuple(
            limit_forms.aim(form, "compact JSON UTF-8 bytes")
            for form in ("compact JSON code points", "compact JSON UTF-16 units")
        ),
        "an output just past max_output_bytes in compact JSON, under it in code points and UTF-16 units",
    )


@composite
def every_detail(draw):
    hypothesis, references, how = draw(bleu.derived_segment())
    detail = draw(st.sampled_from(DETAILS))
    payload = {
        "hypotheses": [hypothesis, ["the", "cat"]],
        "references": [references, [["the", "cat"]]],
        "detail": detail,
    }
    return case(payload, EXPECT_OUTPUT, f"detail {detail!r}; the first hypothesis {how}")


BAD_DETAIL = bleu.bad_option("detail", ("all", "Totals", "ngram", "", None, ["ngrams"], 1, True))


def families(tool_id: str, version: str) -> list[Family]:
    limit = limits(tool_id, version)
    return aiming.with_aims(
        [
            *bleu.valid_families(OPTIONS),
            Family("valid/every-detail", "valid", every_detail(), "each detail level: totals, segments, ngrams"),
            *bleu.boundary_families(tool_id, version, OPTIONS, LARGE_INPUT_OPTIONS),
            Family(
                "boundary/output-size",
                "boundary",
                output_size(limit["max_output_bytes"]),
                "detail ngrams output clearly over max_output_bytes (rejected) and clearly under (accepted)",
            ),
            output_size_forms(limit["max_output_bytes"]),
            *bleu.invalid_families(tool_id, version, OPTIONS, (BAD_DETAIL,)),
            *bleu.representation_families(
                tool_id,
                version,
                OPTIONS,
                {"detail": "segments"},
                ({"detail": "ngrams", "max_order": 8}, {"detail": "segments"}),
            ),
            keys.numeric_tokens_family(ROW_OPTIONS),
        ],
        {
            "valid/every-detail": {f"detail {detail}": option("detail", detail) for detail in DETAILS},
            "boundary/output-size": {
                "clearly under max_output_bytes (accepted)": accepted,
                "just past max_output_bytes in the most compact JSON (rejected)": rejected,
                "tokens that JSON escaping or UTF-8 widens": aiming.any_token(
                    lambda t: not t.startswith(TOKEN_PREFIXES[0])
                ),
            },
        },
    )
