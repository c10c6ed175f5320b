"""Limits measured on the right form: cases at each size limit whose size differs by form.

A case at a limit built from ASCII letters has the same size in UTF-8 bytes, code points,
UTF-16 units, escaped JSON, lowercased, without whitespace: an implementation measuring the
wrong form passes it. Here every limit gets a few fixed cases, exactly at it and one past it
under the contract's form, built so that a wrong form disagrees:

- at the limit (accepted): OUTSIDE under a larger wrong form: escaped JSON (``"``, ``\\``,
  control characters), ``\\u``-escaped JSON (non-ASCII), lowercased (U+0130 grows from 2 bytes
  to 3), the total instead of each item, tokens split on whitespace, every segment's
  references together;
- one past it (rejected): INSIDE under a smaller wrong form: code points, UTF-16 units
  (astral characters: 4 bytes, 2 units), lowercased (KELVIN SIGN: 3 bytes to 1), without
  whitespace, distinct items only, per item (per segment, per text) instead of in total.

The sizes of every form are measured on the built case (``Limit.sizes``), and the aims
("inside by UTF-8 bytes, outside by escaped JSON bytes") are recorded from those measures, so an
aim says what the input really has. No case depends on an open point: the BLEU totals at the
limit count hypotheses and references, one past it the hypotheses alone (A1); the output
limit is only crossed in its most compact form (A2); no lone surrogate (A13, A14); every code
of a rejection is the one every reading gives (A6).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hypothesis import strategies as st

from conformance.model import Expectation
from conformance.strategies.base import EXPECT_OUTPUT, LIMIT_EXCEEDED, Family, aimed, case, limits

# --- the forms a text's size may be measured in ------------------------------------------


def utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def escaped_json_bytes(text: str) -> int:
    """UTF-8 bytes of the JSON string's body, non-ASCII raw (JSON.stringify's escapes)."""
    return utf8_bytes(json.dumps(text, ensure_ascii=False)[1:-1])


def ascii_escaped_json_bytes(text: str) -> int:
    """Bytes of the JSON string's body with non-ASCII \\u-escaped (Python's json.dumps default)."""
    return len(json.dumps(text)[1:-1])


def lowercased_bytes(text: str) -> int:
    return utf8_bytes(text.lower())


def bytes_without_whitespace(text: str) -> int:
    return utf8_bytes("".join(text.split()))


CONTRACT_FORM = "UTF-8 bytes"
TEXT_FORMS: Mapping[str, Callable[[str], int]] = {
    CONTRACT_FORM: utf8_bytes,
    "code points": len,
    "UTF-16 units": utf16_units,
    "escaped JSON bytes": escaped_json_bytes,
    "\\u-escaped JSON bytes": ascii_escaped_json_bytes,
    "UTF-8 bytes without whitespace": bytes_without_whitespace,
}

# Characters whose size differs by form. ESCAPED: JSON escapes each (2, 2 and 6 bytes for 1).
QUOTE_BACKSLASH_CONTROL = '"\\\x01'
WIDE = "\u00e9\u20ac\U0001f600"  # 2, 3, 4 UTF-8 bytes; 1, 1, 2 UTF-16 units; \u-escaped 6, 6, 12
GROWS_LOWERCASED = "\u0130"  # İ, 2 bytes -> i + U+0307, 3 bytes (lowercase-safe: A5)
SHRINKS_LOWERCASED = "\u212a\u1e9e"  # KELVIN SIGN -> k (3 -> 1), ẞ -> ß (3 -> 2); only in rejected cases


def aim(inside_by: str, outside_by: str) -> str:
    return f"inside by {inside_by}, outside by {outside_by}"


@dataclass(frozen=True)
class Limit:
    """One limit: its bound, and the size of a payload under each form (the contract's first)."""

    name: str
    bound: int
    sizes: Callable[[dict], dict[str, int]]

    def aims_of(self, payload: dict) -> list[str]:
        """What the payload is, under the contract's form and each wrong form, against the bound."""
        measured = self.sizes(payload)
        (contract_form, size), *wrong = measured.items()
        if size <= self.bound:
            return [aim(contract_form, form) for form, other in wrong if other > self.bound]
        return [aim(form, contract_form) for form, other in wrong if other <= self.bound]

    def description(self, payload: dict) -> str:
        measured = ", ".join(f"{size} {form}" for form, size in self.sizes(payload).items())
        return f"{self.name} {self.bound}: {measured}"


Builder = Callable[[], tuple[dict, Expectation, str]]


def forms_family(name: str, limit: Limit, builders: tuple[Builder, ...], aims: tuple[str, ...], summary: str) -> Family:
    """A boundary family of a few fixed cases (each built when drawn: some are a megabyte),
    recording the forms each case discriminates, as measured."""

    def built(index: int):
        payload, expect, what = builders[index]()
        for feature in limit.aims_of(payload):
            aimed(feature)
        return case(payload, expect, f"{what}; {limit.description(payload)}")

    return Family(name, "boundary", st.sampled_from(range(len(builders))).map(built), summary, aims=aims)


def repeated_to(chunk: str, size: int, pad: str = "a") -> str:
    """``chunk`` repeated, then ``pad`` (1 byte) to exactly ``size`` UTF-8 bytes."""
    body = chunk * (size // utf8_bytes(chunk))
    return body + pad * (size - utf8_bytes(body))


# --- BLEU tokens: max_token_bytes, max_total_tokens, max_total_token_bytes -----------------


def token_lists(payload: dict) -> list[list[str]]:
    """Every token list of a BLEU input: each hypothesis, then each reference (corpus or one segment)."""
    hypotheses = payload["hypotheses"] if "hypotheses" in payload else [payload["hypothesis"]]
    references = payload["references"] if "hypotheses" in payload else [payload["references"]]
    return [*hypotheses, *(reference for segment in references for reference in segment)]


def all_tokens(payload: dict) -> list[str]:
    return [token for tokens in token_lists(payload) for token in tokens]


def longest_token_sizes(payload: dict) -> dict[str, int]:
    tokens = all_tokens(payload)
    sizes = {form: max(map(measure, tokens)) for form, measure in TEXT_FORMS.items()}
    sizes["UTF-8 bytes of all tokens together"] = sum(map(utf8_bytes, tokens))  # per item, not in total
    return sizes


def total_bytes_sizes(payload: dict) -> dict[str, int]:
    tokens = all_tokens(payload)
    sizes = {form: sum(map(measure, tokens)) for form, measure in TEXT_FORMS.items()}
    sizes["UTF-8 bytes of distinct tokens"] = sum(map(utf8_bytes, set(tokens)))
    sizes["UTF-8 bytes of the largest token list"] = max(sum(map(utf8_bytes, t)) for t in token_lists(payload))
    sizes["UTF-8 bytes of the tokens joined by spaces"] = utf8_bytes(" ".join(tokens))
    return sizes


def total_tokens_sizes(payload: dict) -> dict[str, int]:
    tokens = all_tokens(payload)
    return {
        "tokens": len(tokens),
        "distinct tokens": len(set(tokens)),
        "tokens of the largest token list": max(map(len, token_lists(payload))),
        "whitespace-separated words": sum(len(token.split()) for token in tokens),
    }


def references_sizes(payload: dict) -> dict[str, int]:
    references = payload["references"] if "hypotheses" in payload else [payload["references"]]
    return {
        "references in a segment": max(map(len, references)),
        "distinct references in a segment": max(len({json.dumps(r) for r in segment}) for segment in references),
        "references of every segment together": sum(map(len, references)),
        "token lists in a segment, the hypothesis included": max(map(len, references)) + 1,
    }


def bleu_token_families(
    tool_id: str,
    version: str,
    shape: Callable[[list[list[str]], list[list[list[str]]]], dict],
    segments: int,
    references_expect: Expectation,
) -> list[Family]:
    """``shape(hypotheses, references)`` writes the input (corpus or one segment, default options);
    ``segments``: how many segments an input may have (1 for the one-segment tools);
    ``references_expect``: the code of one reference too many (A6 where the schema mirrors it)."""
    limit = limits(tool_id, version)
    most_references = limit["max_references_per_segment"]
    max_token, max_bytes, max_tokens = (
        limit["max_token_bytes"],
        limit["max_total_token_bytes"],
        limit["max_total_tokens"],
    )
    # at the limit: JSON escapes 3 of its characters and \u-escapes the wide ones
    escaped_token = repeated_to(QUOTE_BACKSLASH_CONTROL + WIDE, max_token)
    # one past: a space and astral characters, 33 code points, 65 UTF-16 units, 128 bytes without the space
    spaced_astral_token = " " + WIDE[-1] * (max_token // 4)
    assert utf8_bytes(spaced_astral_token) == max_token + 1

    def spread(tokens: list[str], lists: int) -> list[list[str]]:
        """The tokens in ``lists`` consecutive runs as equal as integers allow."""
        size = -(-len(tokens) // lists)
        return [tokens[i : i + size] for i in range(0, len(tokens), size)]

    def past_spread(tokens: list[str]) -> dict:
        """Hypothesis tokens alone past the total (A1), spread over the segments, or for one
        segment over the hypothesis and every reference allowed."""
        if segments > 1:
            hypotheses = spread(tokens, segments)
            return shape(hypotheses, [[[]] for _ in hypotheses])  # empty references: exact under A1
        lists = spread(tokens, most_references + 1)
        return shape([lists[0]], [lists[1:]])

    def token_at():
        return (
            shape([["the", escaped_token, "cat"]], [[["the", "cat"]]]),
            EXPECT_OUTPUT,
            "a token exactly at max_token_bytes with a quote, a backslash, a control character and wide characters",
        )

    def token_past():
        return (
            shape([["the", "cat"]], [[["the", spaced_astral_token]]]),
            LIMIT_EXCEEDED,
            "a reference token one byte past max_token_bytes: a space and astral characters, in a small total",
        )

    def bytes_at():  # hypotheses and references together (A1)
        count = max_bytes // max_token - 1
        return (
            shape([[escaped_token] * count], [[[escaped_token]]]),
            EXPECT_OUTPUT,
            f"{count + 1} tokens of {max_token} bytes with characters JSON escapes",
        )

    def bytes_past():
        token = repeated_to(" aaa" + WIDE[-1] * 31, max_token)
        tokens = [token] * (max_bytes // max_token) + ["a"]
        return (
            past_spread(tokens),
            LIMIT_EXCEEDED,
            f"{len(tokens)} hypothesis tokens, one past the total bytes: spaces, astral characters, one repeated token",
        )

    def tokens_at():  # hypotheses and references together (A1)
        return (
            shape([["a b"] * (max_tokens // 2)], [[["a b"] * (max_tokens - max_tokens // 2)]]),
            EXPECT_OUTPUT,
            f"{max_tokens} tokens of two words each",
        )

    def tokens_past():
        return (
            past_spread(["the"] * (max_tokens + 1)),
            LIMIT_EXCEEDED,
            f"{max_tokens + 1} hypothesis tokens, all the same",
        )

    def references_at():
        if segments > 1:  # the limit in every segment: past it counted over all of them
            return (
                shape([["the", "cat"]] * 2, [[["the"], ["cat"]] * (most_references // 2)] * 2),
                EXPECT_OUTPUT,
                f"{most_references} references in each of 2 segments",
            )
        return (
            shape([["the", "cat"]], [[["the"], ["cat"]] * (most_references // 2)]),
            EXPECT_OUTPUT,
            f"{most_references} references and the hypothesis",
        )

    def references_past():
        return (
            shape([["the", "cat"]], [[["the", "cat"]] * (most_references + 1)]),
            references_expect,
            f"{most_references + 1} identical references",
        )

    return [
        forms_family(
            "boundary/token-bytes-forms",
            Limit("max_token_bytes", max_token, longest_token_sizes),
            (token_at, token_past),
            (
                aim(CONTRACT_FORM, "escaped JSON bytes"),
                aim(CONTRACT_FORM, "\\u-escaped JSON bytes"),
                aim(CONTRACT_FORM, "UTF-8 bytes of all tokens together"),
                aim("code points", CONTRACT_FORM),
                aim("UTF-16 units", CONTRACT_FORM),
                aim("UTF-8 bytes without whitespace", CONTRACT_FORM),
            ),
            "a token of 128 bytes that JSON escaping widens, one of 129 bytes in fewer code points, "
            "UTF-16 units, or without its space",
        ),
        forms_family(
            "boundary/total-token-bytes-forms",
            Limit("max_total_token_bytes", max_bytes, total_bytes_sizes),
            (bytes_at, bytes_past),
            (
                aim(CONTRACT_FORM, "escaped JSON bytes"),
                aim(CONTRACT_FORM, "\\u-escaped JSON bytes"),
                aim(CONTRACT_FORM, "UTF-8 bytes of the tokens joined by spaces"),
                aim("code points", CONTRACT_FORM),
                aim("UTF-16 units", CONTRACT_FORM),
                aim("UTF-8 bytes without whitespace", CONTRACT_FORM),
                aim("UTF-8 bytes of distinct tokens", CONTRACT_FORM),
                aim("UTF-8 bytes of the largest token list", CONTRACT_FORM),
            ),
            "1,048,576 token bytes that escaping widens; 1,048,577 in fewer code points, UTF-16 units, "
            "distinct tokens, per token list",
        ),
        forms_family(
            "boundary/total-tokens-forms",
            Limit("max_total_tokens", max_tokens, total_tokens_sizes),
            (tokens_at, tokens_past),
            (
                aim("tokens", "whitespace-separated words"),
                aim("distinct tokens", "tokens"),
                aim("tokens of the largest token list", "tokens"),
            ),
            "50,000 tokens of two words; 50,001 repeated tokens spread over the token lists",
        ),
        forms_family(
            "boundary/references-forms",
            Limit("max_references_per_segment", most_references, references_sizes),
            (references_at, references_past),
            (
                aim("references in a segment", "token lists in a segment, the hypothesis included"),
                aim("distinct references in a segment", "references in a segment"),
                *([aim("references in a segment", "references of every segment together")] if segments > 1 else []),
            ),
            "8 references per segment (in 2 segments); 9 identical references",
        ),
    ]


def corpus_shape(hypotheses: list[list[str]], references: list[list[list[str]]]) -> dict:
    return {"hypotheses": hypotheses, "references": references}


def sentence_shape(hypotheses: list[list[str]], references: list[list[list[str]]]) -> dict:
    """The one segment of a one-segment tool (every case of ``segments`` 1 has one)."""
    return {"hypothesis": hypotheses[0], "references": references[0]}


# --- chrF texts: max_text_bytes ----------------------------------------------------------


def text_sizes(payload: dict) -> dict[str, int]:
    texts = [*payload["hypotheses"], *payload["references"]]
    sizes = {form: sum(map(measure, texts)) for form, measure in TEXT_FORMS.items()}
    if payload.get("lowercase") is True:
        sizes["UTF-8 bytes lowercased"] = sum(map(lowercased_bytes, texts))
    sizes["UTF-8 bytes of distinct texts"] = sum(map(utf8_bytes, set(texts)))
    sizes["UTF-8 bytes of the largest text"] = max(map(utf8_bytes, texts))
    return sizes


def chrf_text_family(tool_id: str, version: str) -> Family:
    bound = limits(tool_id, version)["max_text_bytes"]
    half = bound // 2

    def escapes_at():
        text = repeated_to(f"the {QUOTE_BACKSLASH_CONTROL} cat {WIDE} ", half)
        return (
            {"hypotheses": [text], "references": [text[::-1]]},
            EXPECT_OUTPUT,
            "texts exactly at max_text_bytes with quotes, backslashes, control and wide characters",
        )

    def lowercase_at():
        chunk = f"{GROWS_LOWERCASED}STANBUL {GROWS_LOWERCASED}ZM{GROWS_LOWERCASED}R "
        payload = {
            "hypotheses": [repeated_to(chunk, half)],
            "references": [repeated_to(chunk.lower(), bound - half)],
            "lowercase": True,
        }
        return (
            payload,
            EXPECT_OUTPUT,
            "texts exactly at max_text_bytes, lowercase true, with U+0130 (3 bytes lowercased)",
        )

    def past():
        text = repeated_to(f"the {SHRINKS_LOWERCASED} {WIDE} ", half)
        payload = {"hypotheses": [text, "a"], "references": [text, ""], "lowercase": True}
        return (
            payload,
            LIMIT_EXCEEDED,
            "texts one byte past max_text_bytes, lowercase true: KELVIN SIGN and astral characters, spaces, "
            "the same text twice, each text under the limit",
        )

    wrong_smaller = (
        "code points",
        "UTF-16 units",
        "UTF-8 bytes lowercased",
        "UTF-8 bytes without whitespace",
        "UTF-8 bytes of distinct texts",
        "UTF-8 bytes of the largest text",
    )
    return forms_family(
        "boundary/text-bytes-forms",
        Limit("max_text_bytes", bound, text_sizes),
        (escapes_at, lowercase_at, past),
        (
            aim(CONTRACT_FORM, "escaped JSON bytes"),
            aim(CONTRACT_FORM, "\\u-escaped JSON bytes"),
            aim(CONTRACT_FORM, "UTF-8 bytes lowercased"),
            *(aim(form, CONTRACT_FORM) for form in wrong_smaller),
        ),
        "65,536 text bytes that escaping or lowercasing widens; 65,537 in fewer code points, UTF-16 units, "
        "lowercased, without whitespace, distinct texts, per text",
    )
