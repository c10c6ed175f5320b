"""The limit-form cases (conformance/strategies/limit_forms.py): at every size limit, the case at
it is inside under the contract's form and outside under a wrong one, the case one past it the
reverse, and the quick profile's three examples reach every form a family aims at.

The sizes are measured here again, by hand from the contracts' words, not by the module's
measures: UTF-8 bytes of the tokens or texts as given (both BLEU totals under A1's readings:
hypotheses and references at the limit, hypotheses alone past it).
"""

from __future__ import annotations

import functools
import json

import pytest

from conformance.strategies import aim_counts, draw_examples, families, supported
from oracle.contracts import contract

SEED = 0
QUICK_BOUNDARY_EXAMPLES = 3  # conformance/hypothesis_profiles.py: "quick" draws 3 per boundary family


def forms_families() -> list[tuple[str, str, str]]:
    return [
        (tool_id, version, family.name)
        for tool_id, version in supported()
        for family in families(tool_id, version)
        if family.name.endswith("-forms")
    ]


@functools.cache
def drawn(tool_id: str, version: str, name: str):
    family = next(f for f in families(tool_id, version) if f.name == name)
    with aim_counts.counting() as counter:
        examples = draw_examples(family.strategy, QUICK_BOUNDARY_EXAMPLES, seed=SEED)
    return family, examples, counter


def utf8(text: str) -> int:
    return len(text.encode("utf-8"))


def token_lists(payload: dict) -> tuple[list[list[str]], list[list[str]]]:
    """(hypothesis token lists, reference token lists) of a corpus or one-segment input."""
    if "hypotheses" in payload:
        return payload["hypotheses"], [r for refs in payload["references"] for r in refs]
    return [payload["hypothesis"]], payload["references"]


def test_every_tool_with_a_size_limit_has_its_forms_families():
    names = {(tool_id, name) for tool_id, _, name in forms_families()}
    for tool_id, version in supported():
        limits = contract(tool_id, version).limits
        expected = {
            "max_token_bytes": "boundary/token-bytes-forms",
            "max_total_token_bytes": "boundary/total-token-bytes-forms",
            "max_total_tokens": "boundary/total-tokens-forms",
            "max_text_bytes": "boundary/text-bytes-forms",
            "max_output_bytes": "boundary/output-size-forms",
        }
        for limit, family in expected.items():
            assert (limit not in limits) or (tool_id, family) in names, (tool_id, limit)


@pytest.mark.parametrize("tool_id, version, name", forms_families())
def test_quick_reaches_every_aimed_form(tool_id, version, name):
    family, examples, counter = drawn(tool_id, version, name)
    reached = {feature for feature, count in counter.counts.items() if count}
    assert set(family.aims) <= reached, set(family.aims) - reached
    assert reached <= set(family.aims), reached - set(family.aims)


def token_sizes(payload: dict) -> dict[str, int]:
    hypotheses, references = token_lists(payload)
    every = [t for tokens in [*hypotheses, *references] for t in tokens]
    hypothesis_tokens = [t for tokens in hypotheses for t in tokens]
    return {
        "longest": max(map(utf8, every)),
        "bytes": sum(map(utf8, every)),
        "hypothesis bytes": sum(map(utf8, hypothesis_tokens)),
        "tokens": len(every),
        "hypothesis tokens": len(hypothesis_tokens),
    }


def escaped(text: str) -> int:
    """Bytes of the JSON string body: " and \\ take 2 bytes, U+0001 takes 6 (\\u0001), as RFC 8259 writes them."""
    return utf8(text) + text.count('"') + text.count("\\") + 5 * sum(ch < " " for ch in text)


@pytest.mark.parametrize(
    "tool_id, version, name", [p for p in forms_families() if "token" in p[2] or "references" in p[2]]
)
def test_bleu_cases_sit_at_the_limit_and_one_past(tool_id, version, name):
    limits = contract(tool_id, version).limits
    _, examples, _ = drawn(tool_id, version, name)
    for example in examples:
        sizes, accepted = token_sizes(example.input), example.expect.kind == "output"
        corpus = "hypotheses" in example.input
        if name == "boundary/token-bytes-forms":
            assert sizes["longest"] == limits["max_token_bytes"] + (0 if accepted else 1)
            hypotheses, references = token_lists(example.input)
            longest = max((t for tokens in [*hypotheses, *references] for t in tokens), key=utf8)
            if accepted:  # JSON escaping takes it past; the tokens together are past it too
                assert escaped(longest) > limits["max_token_bytes"] < sizes["bytes"]
            else:  # 4-byte characters: a quarter as many code points; without its space, at the limit
                assert len(longest) <= limits["max_token_bytes"] >= utf8(longest.replace(" ", ""))
        elif name == "boundary/total-token-bytes-forms":
            if accepted:  # every token counted: at the limit under either reading of A1
                assert sizes["bytes"] == limits["max_total_token_bytes"]
            else:  # the corpus tools: the hypotheses alone (A1); the one-segment tools count every token
                assert sizes["hypothesis bytes" if corpus else "bytes"] == limits["max_total_token_bytes"] + 1
        elif name == "boundary/total-tokens-forms":
            if accepted:
                assert sizes["tokens"] == limits["max_total_tokens"]
            else:
                assert sizes["hypothesis tokens" if corpus else "tokens"] == limits["max_total_tokens"] + 1
                assert len({t for tokens in token_lists(example.input)[0] for t in tokens}) == 1
        else:
            _, references = token_lists(example.input)
            per_segment = (
                [len(r) for r in example.input["references"]] if "hypotheses" in example.input else [len(references)]
            )
            assert max(per_segment) == limits["max_references_per_segment"] + (0 if accepted else 1)


@pytest.mark.parametrize("tool_id, version, name", [p for p in forms_families() if p[2] == "boundary/text-bytes-forms"])
def test_chrf_cases_sit_at_the_limit_and_one_past(tool_id, version, name):
    bound = contract(tool_id, version).limits["max_text_bytes"]
    _, examples, _ = drawn(tool_id, version, name)
    for example in examples:
        texts = [*example.input["hypotheses"], *example.input["references"]]
        total = sum(map(utf8, texts))
        if example.expect.kind == "output":
            assert total == bound
            lowercase = example.input.get("lowercase") is True
            # outside escaped, or (lowercase true) outside lowercased: U+0130 -> i + U+0307
            assert sum(map(escaped, texts)) > bound or (lowercase and sum(utf8(t.lower()) for t in texts) > bound)
        else:
            assert total == bound + 1
            # inside in code points, per text, and for the distinct texts
            assert sum(map(len, texts)) <= bound and max(map(utf8, texts)) <= bound
            assert sum(map(utf8, set(texts))) <= bound


@pytest.mark.parametrize(
    "tool_id, version, name", [p for p in forms_families() if p[2] == "boundary/output-size-forms"]
)
def test_output_cases_are_past_the_limit_in_compact_json_only(tool_id, version, name):
    """Past max_output_bytes in compact UTF-8 JSON (the smallest reading of A2), under it in UTF-16 units."""
    from oracle import bleu_ngrams_count

    bound = contract(tool_id, version).limits["max_output_bytes"]
    _, examples, _ = drawn(tool_id, version, name)
    assert examples and all(example.expect.error_code == "limit_exceeded" for example in examples)
    for example in examples:
        text = json.dumps(bleu_ngrams_count.compute(example.input), ensure_ascii=False, separators=(",", ":"))
        assert utf8(text) > bound >= len(text.encode("utf-16-le")) // 2
