"""Generated cases shared by the one-segment BLEU tools (``hypothesis``: a token list,
``references``: token lists), whose contracts state their validation order and every code.

The corpus families of ``strategies.bleu`` are reused for the text of the segment; each tool
module passes its options as a strategy. These contracts decide the points the corpus tools
leave open: the totals count hypothesis and reference tokens, a lone surrogate is
invalid_input, a limit that the schema restates is limit_exceeded, 4.0 is the integer 4, and
the fields are checked before the limits. So the cases here state exact codes, and some break
two rules at once where the stated order says which one decides.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from conformance.strategies import aiming, bleu, limit_forms
from conformance.strategies.aiming import any_token, integral_float, option
from conformance.strategies.base import (
    EXPECT_OUTPUT,
    INVALID_INPUT,
    LIMIT_EXCEEDED,
    Family,
    GeneratedCase,
    aimed,
    case,
    composite,
    input_schema,
    limits,
    sampled_by_index,
)

Tokens = list[str]


def with_options(hypothesis: Tokens, references: list[Tokens], options: dict) -> dict:
    payload = {"hypothesis": hypothesis, "references": references}
    payload.update({key: value for key, value in options.items() if value is not None})
    return payload


def one_segment(corpus_case) -> dict:
    """The first segment of a corpus case's input, as a one-segment input with the same options."""
    payload = dict(corpus_case.input)
    hypotheses, references = payload.pop("hypotheses"), payload.pop("references")
    return {"hypothesis": hypotheses[0], "references": references[0], **payload}


# --- valid -------------------------------------------------------------------------------


def from_corpus_family(family: Family) -> Family:
    """A corpus family's first segment: shared n-grams, clipping, token identity, short and empty, lengths."""
    return Family(
        family.name,
        family.category,
        family.strategy.map(lambda generated: case(one_segment(generated), EXPECT_OUTPUT, generated.description)),
        family.summary,
    )


def matching_prefix_orders(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """Hypotheses whose matches stop at order L: chunks of L reference tokens between unseen tokens,
    so m_n > 0 up to L and 0 above (k of the NIST counter at 1, 2, 3 for L = 1, 2, 3 at max_order 4)."""

    @composite
    def build(draw: st.DrawFn) -> GeneratedCase:
        reference = [f"w{i}" for i in range(draw(st.integers(4, 12)))]
        longest = draw(st.integers(0, 5))
        hypothesis: Tokens = []
        for _ in range(draw(st.integers(1, 4))):
            start = draw(st.integers(0, len(reference) - 1))
            hypothesis += reference[start : start + longest] + [draw(st.sampled_from(("x", "y", "w99")))]
        if draw(st.booleans()):
            hypothesis = hypothesis[:-1]  # ends on a matching chunk
        others = draw(st.lists(st.lists(st.sampled_from(reference), max_size=6), max_size=2))
        payload = with_options(hypothesis, [reference, *others], draw(options))
        return case(
            payload,
            EXPECT_OUTPUT,
            f"matching n-grams up to order {longest} only (zero-match orders from {longest + 1} on)",
        )

    return build()


def integers_as_floats(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """Every integer option written with a fraction: "4.0 is the integer 4"."""

    @composite
    def build(draw):
        hypothesis, references, how = draw(bleu.derived_segment())
        chosen = {key: value for key, value in draw(options).items() if value is not None}
        chosen["max_order"] = float(draw(st.integers(1, 8)))
        if "decimals" in chosen:
            chosen["decimals"] = float(chosen["decimals"])
        return case(
            with_options(hypothesis, references, chosen),
            EXPECT_OUTPUT,
            f"integers written as floats {chosen}; the hypothesis {how}",
        )

    return build()


def valid_families(options: st.SearchStrategy[dict]) -> list[Family]:
    corpus = {family.name: family for family in bleu.valid_families(st.just({}), record=False)}
    chosen = (
        "valid/shared-ngrams",
        "valid/clipping",
        "valid/token-identity",
        "valid/short-and-empty",
        "valid/reference-lengths",
    )
    with_chosen_options = [
        Family(
            name,
            "valid",
            st.tuples(corpus[name].strategy, options).map(
                lambda pair: case(
                    {**one_segment(pair[0]), **{k: v for k, v in pair[1].items() if v is not None}},
                    EXPECT_OUTPUT,
                    pair[0].description,
                )
            ),
            corpus[name].summary,
        )
        for name in chosen
    ]
    return aiming.with_aims(
        [
            *with_chosen_options,
            Family(
                "valid/matching-prefix-orders",
                "valid",
                matching_prefix_orders(options),
                "matches only up to order L = 0..5: the zero-match orders at every position",
            ),
            Family(
                "valid/integers-as-floats",
                "valid",
                integers_as_floats(options),
                "max_order (and decimals) written 4.0: the integer 4",
            ),
        ],
        {**{name: bleu.VALID_FEATURES[name] for name in chosen}, **VALID_FEATURES},
    )


def longest_match(generated) -> int:
    return max(aiming.longest_match(h, refs) for h, refs in aiming.segments(generated.input))


VALID_FEATURES: dict[str, aiming.Features] = {
    "valid/matching-prefix-orders": {
        "no matching n-gram": lambda g: longest_match(g) == 0,
        "matches up to order 1 only": lambda g: longest_match(g) == 1,
        "matches up to order 2 only": lambda g: longest_match(g) == 2,
        "matches up to order 3 only": lambda g: longest_match(g) == 3,
        "matches of order 4 or more": lambda g: longest_match(g) >= 4,
    },
    "valid/integers-as-floats": {"max_order written as a float": integral_float("max_order")},
}


# --- boundary ----------------------------------------------------------------------------


def with_required_options(tool_id: str, version: str):
    """The one-segment shape of the limit-form cases, with every required option at its first
    value (bleu-sentence-compute requires smoothing: "none")."""
    schema = input_schema(tool_id, version)
    required = {
        key: schema["properties"][key]["enum"][0]
        for key in schema.get("required", [])
        if "enum" in schema["properties"][key]
    }
    return lambda hypotheses, references: {**limit_forms.sentence_shape(hypotheses, references), **required}


def boundary_families(tool_id: str, version: str, options: st.SearchStrategy[dict]) -> list[Family]:
    limit = limits(tool_id, version)

    @composite
    def max_references(draw):
        past = draw(st.booleans())
        count = limit["max_references_per_segment"] + (1 if past else 0)
        references = [draw(st.lists(st.sampled_from(bleu.WORDS), max_size=4)) for _ in range(count)]
        payload = with_options(["the", "cat"], references, draw(options))
        # "The limits answer limit_exceeded; they include the schema's maxItems 8 on references"
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"{count} references (max_references_per_segment {limit['max_references_per_segment']})",
        )

    @composite
    def token_bytes(draw):
        past = draw(st.booleans())
        size = limit["max_token_bytes"] + (1 if past else 0)
        token = bleu.token_of_bytes(size, draw(st.sampled_from((1, 2, 3, 4))))
        hypothesis, references = ["the", "cat"], [["the", "cat"]]
        if draw(st.booleans()):
            references = [["the", token, "cat"]]
        else:
            hypothesis = ["the", token]
        payload = with_options(hypothesis, references, draw(options))
        # over 128 code points is also over 128 bytes: limit_exceeded either way
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"a token of {size} UTF-8 bytes and {len(token)} code points",
        )

    @composite
    def total_tokens(draw):
        past = draw(st.booleans())
        total = limit["max_total_tokens"] + (1 if past else 0)
        in_hypothesis = draw(st.sampled_from((1, total // 2, total - 1)))
        references = draw(st.integers(1, limit["max_references_per_segment"]))
        rest = total - in_hypothesis
        share, extra = divmod(rest, references)
        hypothesis = ["the", "cat"] * (in_hypothesis // 2) + ["the"] * (in_hypothesis % 2)
        reference_lists = [
            ["cat", "the"] * ((share + (i < extra)) // 2) + ["a"] * ((share + (i < extra)) % 2)
            for i in range(references)
        ]
        payload = with_options(hypothesis, reference_lists, draw(options))
        # "Both totals count the hypothesis tokens and every reference token"
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"{total} tokens: {in_hypothesis} in the hypothesis, {rest} in {references} references "
            f"(max_total_tokens {limit['max_total_tokens']})",
        )

    @composite
    def total_token_bytes(draw):
        past = draw(st.booleans())
        total = limit["max_total_token_bytes"] + (1 if past else 0)
        width = draw(st.sampled_from((1, 2, 3, 4)))
        share = draw(st.sampled_from((0.5, 0.25, 0.9)))
        hypothesis_bytes = int(total * share)
        hypothesis = bleu.tokens_totalling(hypothesis_bytes, width, limit["max_token_bytes"])
        reference = bleu.tokens_totalling(total - hypothesis_bytes, width, limit["max_token_bytes"])
        payload = with_options(hypothesis, [reference], draw(options))
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"tokens total {total} UTF-8 bytes ({width}-byte characters; max_total_token_bytes "
            f"{limit['max_total_token_bytes']})",
        )

    @composite
    def max_order_extremes(draw):
        hypothesis, references, how = draw(bleu.derived_segment())
        max_order = draw(st.sampled_from((1, 8, 1.0, 8.0)))  # "4.0 is the integer 4"
        payload = with_options(hypothesis, references, {**draw(options), "max_order": max_order})
        return case(payload, EXPECT_OUTPUT, f"max_order {max_order!r}; the hypothesis {how}")

    return aiming.with_aims(
        [
            Family("boundary/max-references", "boundary", max_references(), "8 and 9 references"),
            Family(
                "boundary/token-bytes",
                "boundary",
                token_bytes(),
                "tokens of exactly 128 and 129 UTF-8 bytes of 1-, 2-, 3- and 4-byte characters",
            ),
            Family(
                "boundary/total-tokens",
                "boundary",
                total_tokens(),
                "50,000 and 50,001 tokens counting the hypothesis and every reference",
            ),
            Family(
                "boundary/total-token-bytes",
                "boundary",
                total_token_bytes(),
                "1,048,576 and 1,048,577 UTF-8 bytes of tokens in all",
            ),
            Family(
                "boundary/max-order", "boundary", max_order_extremes(), "max_order 1 and 8, also written 1.0 and 8.0"
            ),
            *limit_forms.bleu_token_families(
                tool_id, version, with_required_options(tool_id, version), 1, LIMIT_EXCEEDED
            ),
        ],
        {
            "boundary/max-references": bleu.LIMIT_SIDES,
            "boundary/token-bytes": {
                **bleu.LIMIT_SIDES,
                "the long token in a reference": lambda g: any(
                    bleu.bytes_of(t) >= 128 for r in g.input["references"] for t in r
                ),
                "the long token in the hypothesis": lambda g: any(
                    bleu.bytes_of(t) >= 128 for t in g.input["hypothesis"]
                ),
                "multi-byte characters": any_token(aiming.multi_byte),
            },
            "boundary/total-tokens": {
                **bleu.LIMIT_SIDES,
                "one token in the hypothesis": lambda g: len(g.input["hypothesis"]) == 1,
                "all tokens but one in the hypothesis": lambda g: (
                    len(g.input["hypothesis"]) >= limit["max_total_tokens"] - 1
                ),
                "spread over every reference allowed": lambda g: (
                    len(g.input["references"]) == limit["max_references_per_segment"]
                ),
            },
            "boundary/total-token-bytes": {**bleu.LIMIT_SIDES, "multi-byte characters": any_token(aiming.multi_byte)},
            "boundary/max-order": {
                "max_order 1": option("max_order", 1, 1.0),
                "max_order 8": option("max_order", 8, 8.0),
                "max_order written as a float": integral_float("max_order"),
            },
        },
    )


# --- invalid -----------------------------------------------------------------------------

NON_OBJECTS: tuple[object, ...] = ([], [{"hypothesis": ["a"], "references": [["a"]]}], "hypothesis", 0, 3.5, None, True)
Mutation = Callable[[dict, Callable], str]


@composite
def ordinary_segment(draw) -> dict:
    hypothesis = draw(st.lists(st.sampled_from(bleu.WORDS), min_size=1, max_size=4))
    references = draw(st.lists(st.lists(st.sampled_from(bleu.WORDS), min_size=1, max_size=4), min_size=1, max_size=3))
    return {"hypothesis": hypothesis, "references": references}


def _pick(draw: Callable, items: list) -> int:
    return draw(st.integers(0, len(items) - 1))


def _wrong_hypothesis(payload: dict, draw: Callable) -> str:
    payload["hypothesis"] = draw(st.sampled_from((None, "the cat", {"0": "the"}, 1, True, [["the"]])))
    return f"hypothesis is {payload['hypothesis']!r}"


def _wrong_hypothesis_token(payload: dict, draw: Callable) -> str:
    j = _pick(draw, payload["hypothesis"])
    payload["hypothesis"][j] = draw(st.sampled_from((None, True, 0, 1.5, ["the"], {"t": "the"}, "", "\ud800")))
    return f"hypothesis[{j}] is {payload['hypothesis'][j]!r}"


def _wrong_references(payload: dict, draw: Callable) -> str:
    payload["references"] = draw(st.sampled_from((None, "the cat", {"0": ["the"]}, 1, False, [], ["the"])))
    return f"references is {payload['references']!r}"


def _wrong_reference(payload: dict, draw: Callable) -> str:
    k = _pick(draw, payload["references"])
    payload["references"][k] = draw(st.sampled_from((None, "the cat", {"0": "the"}, 3, True)))
    return f"references[{k}] is {payload['references'][k]!r}"


def _wrong_reference_token(payload: dict, draw: Callable) -> str:
    k = _pick(draw, payload["references"])
    j = _pick(draw, payload["references"][k])
    payload["references"][k][j] = draw(st.sampled_from((None, False, 7, 0.5, ["the"], {}, "", "\udfff", "a\udc00b")))
    return f"references[{k}][{j}] is {payload['references'][k][j]!r}"


def _unknown_key(payload: dict, draw: Callable) -> str:
    key = draw(
        st.sampled_from(
            (
                "hypotheses",
                "Hypothesis",
                "max_order ",
                "tokenize",
                "lowercase",
                "weights",
                "",
                "__proto__",
                "constructor",
                "toString",
                "valueOf",
                "hasOwnProperty",
            )
        )
    )
    payload[key] = draw(st.sampled_from((True, 4, "none", None)))
    return f"unknown key {key!r}"


def _missing_key(required: tuple[str, ...]) -> Mutation:
    def mutate(payload: dict, draw: Callable) -> str:
        key = draw(st.sampled_from(required))
        del payload[key]
        return f"required key {key!r} is missing"

    return mutate


BAD_MAX_ORDER = bleu.bad_option("max_order", (0, 9, -1, 100, 2**63, 4.5, "4", True, None, [4]))
SCHEMA_RULE_BROKEN: dict[Mutation, str] = {  # the aimed feature each mutation gives
    **dict.fromkeys(
        (_wrong_hypothesis, _wrong_hypothesis_token, _wrong_references, _wrong_reference, _wrong_reference_token),
        "a wrong type, an empty token or a lone surrogate at some level",
    ),
    _unknown_key: "an unknown key (also named like an object property)",
    BAD_MAX_ORDER: bleu.OPTION_BROKEN,
}
SCHEMA_MUTATIONS: tuple[Mutation, ...] = (
    _wrong_hypothesis,
    _wrong_hypothesis_token,
    _wrong_references,
    _wrong_reference,
    _wrong_reference_token,
    _unknown_key,
    BAD_MAX_ORDER,
)


def invalid_families(
    tool_id: str,
    version: str,
    options: st.SearchStrategy[dict],
    option_mutations: tuple[Mutation, ...],
    required: tuple[str, ...],
) -> list[Family]:
    limit = limits(tool_id, version)

    def ordinary(draw) -> dict:
        return {**draw(ordinary_segment()), **{k: v for k, v in draw(options).items() if v is not None}}

    @composite
    def schema(draw):
        payload = ordinary(draw)
        mutation = draw(st.sampled_from(SCHEMA_MUTATIONS + option_mutations + (_missing_key(required),)))
        what = mutation(payload, draw)
        aimed(
            SCHEMA_RULE_BROKEN.get(
                mutation, "a missing key" if mutation not in option_mutations else bleu.OPTION_BROKEN
            )
        )
        return case(payload, INVALID_INPUT, f"breaks one rule of a field: {what}")

    @composite
    def over_limits(draw):
        payload = ordinary(draw)
        which = draw(st.sampled_from(("token-bytes", "token-code-points", "references")))
        if which == "token-bytes":
            payload["hypothesis"].append(bleu.token_of_bytes(4 * draw(st.integers(33, 128)), 4))
        elif which == "token-code-points":
            payload["references"][0].append("a" * draw(st.integers(129, 400)))
        else:
            payload["references"] = [
                ["the"] for _ in range(draw(st.integers(limit["max_references_per_segment"] + 1, 20)))
            ]
        return case(payload, LIMIT_EXCEEDED, f"{which} over its limit")

    @composite
    def stated_order(draw):
        """A broken field and a broken limit at once: "then the limits" -- the field decides."""
        payload = ordinary(draw)
        payload["references"] = [["the"] for _ in range(limit["max_references_per_segment"] + 1)]
        mutation = draw(st.sampled_from((_wrong_hypothesis_token, BAD_MAX_ORDER, *option_mutations)))
        what = mutation(payload, draw)
        aimed(STATED_ORDER_FIELD.get(mutation, bleu.OPTION_BROKEN) + " with 9 references")
        return case(payload, INVALID_INPUT, f"{what} and 9 references: the fields are checked before the limits")

    @composite
    def lone_surrogates(draw):
        payload = ordinary(draw)
        surrogate = draw(st.sampled_from(("\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800")))
        if draw(st.booleans()):
            j = _pick(draw, payload["hypothesis"])
            payload["hypothesis"][j] = draw(st.sampled_from(("", "the", "a b"))) + surrogate
            where = f"hypothesis[{j}]"
        else:
            k = _pick(draw, payload["references"])
            j = _pick(draw, payload["references"][k])
            payload["references"][k][j] = surrogate + draw(st.sampled_from(("", "cat")))
            where = f"references[{k}][{j}]"
        return case(
            payload, INVALID_INPUT, f"{where} holds a lone surrogate ({surrogate.encode('unicode_escape').decode()})"
        )

    schema_aims = tuple(dict.fromkeys([*SCHEMA_RULE_BROKEN.values(), "a missing key"]))
    stated_order_aims = tuple(
        f"{field} with 9 references"
        for field in dict.fromkeys([*STATED_ORDER_FIELD.values(), *([bleu.OPTION_BROKEN] if option_mutations else [])])
    )
    return aiming.with_aims(
        [
            Family(
                "invalid/lone-surrogates",
                "invalid",
                lone_surrogates(),
                "a token holding a lone surrogate, in the hypothesis or a reference: invalid_input",
            ),
            Family(
                "invalid/not-an-object",
                "invalid",
                sampled_by_index(NON_OBJECTS).map(
                    lambda value: case(value, INVALID_INPUT, f"top level is {value!r}, not an object")
                ),
                "the input is an array, string, number, null or boolean",
            ),
            Family(
                "invalid/schema",
                "invalid",
                schema(),
                "one rule of a field broken: a wrong type at each level, an empty token, a lone surrogate, an "
                "unknown or missing key, an option out of range",
                aims=schema_aims,
            ),
            Family(
                "invalid/limits",
                "invalid",
                over_limits(),
                "a token over 128 bytes or code points, 9 or more references",
            ),
            Family(
                "invalid/stated-order",
                "invalid",
                stated_order(),
                "a broken field together with a broken limit: the field's invalid_input decides",
                aims=stated_order_aims,
            ),
        ],
        {
            "invalid/lone-surrogates": {
                "in the hypothesis": lambda g: aiming.surrogate_in(g.input["hypothesis"]),
                "in a reference": lambda g: aiming.surrogate_in(g.input["references"]),
                "a high surrogate": lambda g: aiming.high_surrogate_in(g.input),
                "a low surrogate": lambda g: aiming.low_surrogate_in(g.input),
            },
            "invalid/not-an-object": aiming.NOT_AN_OBJECT,
            "invalid/limits": bleu.over_token_limits(limit["max_token_bytes"], 128)
            | {
                "over max_references_per_segment": lambda g: (
                    len(g.input["references"]) > limit["max_references_per_segment"]
                ),
            },
        },
    )


STATED_ORDER_FIELD: dict[Mutation, str] = {
    _wrong_hypothesis_token: "a wrong hypothesis token",
    BAD_MAX_ORDER: "max_order out of range or of the wrong type",
}


# --- inputs crossing representation boundaries (the corpus families, one segment) ---------


def one_segment_family(family: Family) -> Family:
    """A corpus family of one-segment inputs as the one-segment form, its aims kept."""
    return Family(
        family.name,
        family.category,
        family.strategy.map(lambda generated: case(one_segment(generated), generated.expect, generated.description)),
        family.summary,
        aims=family.aims,
    )


def representation_families(
    tool_id: str,
    version: str,
    options: st.SearchStrategy[dict],
    valid_inputs: st.SearchStrategy[dict],
    wide_options: dict,
) -> list[Family]:
    """Widths, derived keys and special names; ``valid_inputs``: small valid inputs of the tool;
    ``wide_options``: the fixed options of the big inputs (32,768 tokens, hundreds of distinct ones)."""
    from conformance.strategies import keys, widths

    limit = limits(tool_id, version)
    return [
        one_segment_family(keys.joined_key_collisions(options)),
        one_segment_family(keys.last_token_family({k: v for k, v in wide_options.items() if k != "max_order"})),
        one_segment_family(widths.wide_counts_family(limit["max_total_tokens"], None, wide_options, wide_options)),
        keys.property_named_keys(valid_inputs),
    ]
