"""Generated cases shared by the two BLEU tools (bleu-ngrams-count, bleu-corpus-compute).

Both take pre-tokenized ``hypotheses`` and ``references`` with the same schema and
limits; they differ in their options (``detail`` or ``decimals``), which each tool
module passes in as a strategy. Open points avoided here: A1 (totals are either
within the limit counting hypothesis and reference tokens, or over it counting
hypothesis tokens alone), A3 (no lone surrogates), A6/A7 (one broken rule per
invalid case; "any" code where a schema rule mirrors a named limit), A9 (no
integer option written as a float such as 4.0) and A10 (unequal segment counts
only as more hypotheses than references).
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from conformance.strategies import aiming, limit_forms
from conformance.strategies.aiming import any_token, in_a_segment, option
from conformance.strategies.alphabets import ASTRAL_CHARACTERS, CHARACTER_OF_WIDTH
from conformance.strategies.base import (
    ANY_ERROR,
    EXPECT_OUTPUT,
    INVALID_INPUT,
    LIMIT_EXCEEDED,
    Family,
    aimed,
    case,
    composite,
    input_schema,
    limits,
    sampled_by_index,
)

Tokens = list[str]

# A small vocabulary, so that hypotheses and references share n-grams often. It holds names of
# JavaScript's built-in object properties: counting n-grams in a plain `{}` breaks on them.
WORDS = (
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    "is",
    "there",
    ".",
    ",",
    "The",
    "constructor",
    "toString",
    "__proto__",
)

# Tokens an implementation may mangle: spaces inside a token, JSON escapes, NBSP, astral
# and combining characters, case variants, look-alikes that are different strings.
UNUSUAL_TOKENS = (
    "a b",
    " the",
    "the ",
    "a\tb",
    "a\u00a0b",
    '"',
    "\\",
    "</s>",
    "\u00e9",
    "e\u0301",
    "THE",
    "\u0130",
    "\ufb01",
    "fi",
    "\u2126",
    "\u03a9",
    "\u200b",
    "\uff11",
    "1",
    *ASTRAL_CHARACTERS[:3],
    "x" * 128,
    "hasOwnProperty",
    "valueOf",
    "__defineGetter__",
)

# Token sequences a naive implementation could conflate (joining n-grams with a space,
# normalising Unicode, folding case, counting UTF-16 units). Each group: its variants.
CONFUSABLE_GROUPS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("a b",), ("a", "b")),
    (("a b", "c"), ("a", "b c"), ("a", "b", "c")),
    (("\u00e9",), ("e\u0301",)),
    (("The",), ("the",), ("THE",)),
    (("\u0130",), ("i\u0307",), ("i",)),
    (("\u2126",), ("\u03a9",)),
    (("\ufb01",), ("fi",)),
    (("a\u00a0b",), ("a b",)),
    (("a",), ("a\u200b",)),
    (("the",), ("the ",), (" the",)),
    (("\U0001d4b3",), ("X",), ("\U0001d4b3\U0001d4b3",)),
    (("1",), ("\uff11",)),
)

MAX_ORDERS = st.one_of(st.none(), st.integers(1, 8))


def word_tokens() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from(UNUSUAL_TOKENS))


def with_options(hypotheses: list[Tokens], references: list[list[Tokens]], options: dict) -> dict:
    payload = {"hypotheses": hypotheses, "references": references}
    payload.update({key: value for key, value in options.items() if value is not None})
    return payload


# --- valid: hypotheses built from the references ---------------------------------


@composite
def derived_hypothesis(draw, references: list[Tokens]) -> tuple[Tokens, str]:
    """A hypothesis made from one reference by one aimed edit, and the edit's name."""
    base = draw(st.sampled_from(references))
    edit = draw(st.sampled_from(("copy", "reorder", "drop", "repeat", "insert", "truncate", "splice", "empty")))
    if edit == "copy" or (not base and edit != "insert"):
        return list(base), "copies a reference"
    if edit == "reorder":
        return draw(st.permutations(base)), "reorders a reference's tokens"
    if edit == "drop":
        keep = draw(st.lists(st.booleans(), min_size=len(base), max_size=len(base)))
        return [t for t, k in zip(base, keep) if k], "drops some reference tokens"
    if edit == "repeat":
        index = draw(st.integers(0, len(base) - 1))
        times = draw(st.integers(2, 6))
        return base[: index + 1] + [base[index]] * times + base[
            index + 1 :
        ], "repeats a reference token beyond its max count"
    if edit == "insert":
        extra = draw(st.lists(st.sampled_from(("unseen", "x y", "\U0001f600", "Cat")), min_size=1, max_size=3))
        at = draw(st.integers(0, len(base)))
        return base[:at] + extra + base[at:], "inserts tokens no reference has"
    if edit == "truncate":
        return base[: draw(st.integers(0, min(3, len(base))))], "keeps a short prefix (shorter than n)"
    if edit == "splice":
        other = draw(st.sampled_from(references))
        return base[: len(base) // 2] + other[len(other) // 2 :], "splices halves of two references"
    return [], "is empty"


@composite
def derived_segment(draw) -> tuple[Tokens, list[Tokens], str]:
    references = draw(st.lists(st.lists(word_tokens(), max_size=10), min_size=1, max_size=4))
    hypothesis, how = draw(derived_hypothesis(references))
    return hypothesis, references, how


def shared_ngrams(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    @composite
    def build(draw):
        segments = draw(st.lists(derived_segment(), min_size=1, max_size=4))
        payload = with_options([s[0] for s in segments], [s[1] for s in segments], draw(options))
        edits = "; ".join(f"segment {i} {s[2]}" for i, s in enumerate(segments))
        return case(payload, EXPECT_OUTPUT, f"hypotheses built from their references: {edits}")

    return build()


def clipping(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """One n-gram, several references holding it different numbers of times, a hypothesis repeating it."""

    @composite
    def build(draw):
        ngram = draw(st.lists(st.sampled_from(("the", "cat", "a b", "\u00e9")), min_size=1, max_size=3))
        reference_counts = draw(st.lists(st.integers(0, 4), min_size=1, max_size=8))
        hypothesis_count = draw(st.integers(0, max(reference_counts) + 3))

        def repeated(times: int, separator: str) -> Tokens:
            tokens: Tokens = []
            for _ in range(times):
                tokens += [*ngram, separator]
            return tokens

        references = [repeated(count, "|") for count in reference_counts]
        hypothesis = repeated(hypothesis_count, draw(st.sampled_from(("|", "/"))))
        payload = with_options([hypothesis], [references], draw(options))
        return case(
            payload,
            EXPECT_OUTPUT,
            f"hypothesis holds n-gram {ngram} {hypothesis_count} times; its references {reference_counts} times "
            "(clipped by the largest count in one reference, not the sum)",
        )

    return build()


def token_identity(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """Variants of confusable token sequences on the two sides: only exact equality matches."""

    @composite
    def build(draw):
        groups = draw(st.lists(st.sampled_from(CONFUSABLE_GROUPS), min_size=1, max_size=3))
        context = st.lists(st.sampled_from(WORDS), max_size=2)

        def side() -> Tokens:
            tokens = draw(context)
            for group in groups:
                tokens += [*draw(st.sampled_from(group)), *draw(context)]
            return tokens

        hypothesis = side()
        references = [side() for _ in range(draw(st.integers(1, 3)))]
        payload = with_options([hypothesis], [references], draw(options))
        shown = ", ".join(" vs ".join(map(repr, group)) for group in groups)
        return case(payload, EXPECT_OUTPUT, f"tokens compared by exact string equality: {shown}")

    return build()


def short_and_empty(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """Hypotheses shorter than n, empty hypotheses and empty references, with large max_order."""

    @composite
    def build(draw):
        chosen = dict(draw(options))
        max_order = draw(st.integers(2, 8))
        chosen["max_order"] = max_order
        segments = draw(st.integers(1, 4))
        hypotheses = [draw(st.lists(st.sampled_from(WORDS), max_size=max_order - 1)) for _ in range(segments)]
        references = [
            draw(st.lists(st.lists(st.sampled_from(WORDS), max_size=max_order + 1), min_size=1, max_size=3))
            for _ in range(segments)
        ]
        payload = with_options(hypotheses, references, chosen)
        lengths = [len(h) for h in hypotheses]
        return case(payload, EXPECT_OUTPUT, f"hypothesis lengths {lengths}, all shorter than max_order {max_order}")

    return build()


def segment_boundaries(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """N-grams never cross segments: a reference n-gram split across two hypothesis segments."""

    @composite
    def build(draw):
        phrase = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=5))
        cut = draw(st.integers(1, len(phrase) - 1))
        hypotheses = [phrase[:cut], phrase[cut:]]
        references = [[list(phrase)], [draw(st.sampled_from((list(phrase), phrase[cut:], [])))]]
        payload = with_options(hypotheses, references, draw(options))
        return case(payload, EXPECT_OUTPUT, f"reference phrase {phrase} split across two hypothesis segments at {cut}")

    return build()


def reference_lengths(options: st.SearchStrategy[dict]) -> st.SearchStrategy:
    """The closest reference length: ties to the shorter, all shorter, all longer, c = 0, r = 0."""

    @composite
    def build(draw):
        rows = []
        for _ in range(draw(st.integers(1, 3))):
            c = draw(st.integers(0, 6))
            offsets = draw(st.sampled_from(((-1, 1), (1, -1), (0,), (-2, -1), (1, 2), (-1, 1, 2), (2, -2))))
            lengths = [max(0, c + d) for d in offsets]
            hypothesis = ["the"] * c
            references = [
                ["the", "cat", "sat", "on", "the", "mat", "a", "dog"][:n] + ["."] * max(0, n - 8) for n in lengths
            ]
            rows.append((hypothesis, references, c, lengths))
        payload = with_options([r[0] for r in rows], [r[1] for r in rows], draw(options))
        shown = "; ".join(f"c={r[2]} reference lengths {r[3]}" for r in rows)
        return case(payload, EXPECT_OUTPUT, f"closest reference length per segment (ties to the shorter): {shown}")

    return build()


# --- the aimed features of the valid families, read from the drawn input (any segment) ---------


def _clip_counts(hypothesis: Tokens, references: list[Tokens]) -> tuple[int, list[int]]:
    """valid/clipping's n-gram counts: one separator follows each occurrence."""
    return hypothesis.count("|") + hypothesis.count("/"), [reference.count("|") for reference in references]


def _ngram_length(references: list[Tokens]) -> int:
    return max((len(r) // r.count("|") - 1 for r in references if r.count("|")), default=0)


def _over_repeated(hypothesis: Tokens, references: list[Tokens]) -> bool:
    return any(hypothesis.count(t) > max(r.count(t) for r in references) >= 1 for t in set(hypothesis))


def _lengths(hypothesis: Tokens, references: list[Tokens]) -> tuple[int, list[int]]:
    return len(hypothesis), [len(r) for r in references]


def tied(c: int, lengths: list[int]) -> bool:
    return any(c - d in lengths and c + d in lengths for d in range(1, c + 1))


def _casefold_variants(generated) -> bool:
    distinct = set(aiming.tokens(generated.input))
    return len({t.casefold() for t in distinct}) < len(distinct)


# Shared by the one-segment tools (bleu_sentence), so every predicate looks at one segment at a time.
VALID_FEATURES: dict[str, aiming.Features] = {
    "valid/shared-ngrams": {
        "a hypothesis copying a reference": in_a_segment(lambda h, refs: bool(h) and h in refs),
        "a hypothesis reordering a reference": in_a_segment(
            lambda h, refs: any(sorted(h) == sorted(r) != h for r in refs)
        ),
        "a token repeated beyond its count in every reference": in_a_segment(_over_repeated),
        "a token no reference has": in_a_segment(lambda h, refs: any(all(t not in r for r in refs) for t in h)),
        "an empty hypothesis": in_a_segment(lambda h, refs: not h),
        "a shared n-gram of order 4 or more": in_a_segment(lambda h, refs: aiming.longest_match(h, refs) >= 4),
    },
    "valid/clipping": {
        "clipped: the hypothesis holds the n-gram more often than any reference": in_a_segment(
            lambda h, refs: _clip_counts(h, refs)[0] > max(_clip_counts(h, refs)[1]) >= 1
        ),
        "counts spread over references (the largest below the sum)": in_a_segment(
            lambda h, refs: sum(_clip_counts(h, refs)[1]) > max(_clip_counts(h, refs)[1])
        ),
        "a reference without the n-gram": in_a_segment(lambda h, refs: 0 in _clip_counts(h, refs)[1]),
        "an n-gram of two or more tokens": in_a_segment(lambda h, refs: _ngram_length(refs) >= 2),
    },
    "valid/token-identity": {
        "a token holding a space": any_token(lambda t: " " in t),
        "a precomposed letter or its combining form (U+00E9, e + U+0301)": any_token(
            lambda t: "\u00e9" in t or "e\u0301" in t
        ),
        "case variants of one token": _casefold_variants,
        "dotted capital I (U+0130)": any_token(lambda t: "\u0130" in t),
        "an astral character": any_token(lambda t: any(ord(ch) > 0xFFFF for ch in t)),
        "a zero-width or no-break space in a token": any_token(lambda t: "\u200b" in t or "\u00a0" in t),
        "compatibility look-alikes (ligature, ohm, fullwidth digit)": any_token(
            lambda t: any(ch in t for ch in "\ufb01\u2126\uff11")
        ),
    },
    "valid/short-and-empty": {
        "a non-empty hypothesis shorter than max_order": lambda g: in_a_segment(
            lambda h, refs: 0 < len(h) < g.input.get("max_order", 4)
        )(g),
        "an empty hypothesis": in_a_segment(lambda h, refs: not h),
        "an empty reference": in_a_segment(lambda h, refs: [] in refs),
        "max_order 8": option("max_order", 8),
    },
    "valid/reference-lengths": {
        "a tie between a shorter and a longer reference": in_a_segment(lambda h, refs: tied(*_lengths(h, refs))),
        "every reference shorter": in_a_segment(lambda h, refs: all(n < len(h) for n in _lengths(h, refs)[1])),
        "every reference longer": in_a_segment(lambda h, refs: all(n > len(h) for n in _lengths(h, refs)[1])),
        "an empty hypothesis (c = 0)": in_a_segment(lambda h, refs: not h),
        "an empty reference (r = 0)": in_a_segment(lambda h, refs: [] in refs),
    },
}
CORPUS_VALID_FEATURES: dict[str, aiming.Features] = {
    **VALID_FEATURES,
    "valid/segment-boundaries": {
        "the second reference holds the whole phrase": lambda g: (
            g.input["references"][1][0] == g.input["references"][0][0]
        ),
        "the second reference holds the phrase's tail only": lambda g: (
            g.input["references"][1][0] == g.input["hypotheses"][1] != g.input["references"][0][0]
        ),
        "the second reference is empty": lambda g: g.input["references"][1][0] == [],
    },
}


def valid_families(options: st.SearchStrategy[dict], record: bool = True) -> list[Family]:
    """``record``: with their aimed features (a caller that reshapes the inputs records its own)."""
    return aiming.with_aims(_valid_families(options), CORPUS_VALID_FEATURES if record else {})


def _valid_families(options: st.SearchStrategy[dict]) -> list[Family]:
    return [
        Family(
            "valid/shared-ngrams",
            "valid",
            shared_ngrams(options),
            "hypotheses copied, reordered, cut, repeated, spliced or emptied from their references",
        ),
        Family(
            "valid/clipping",
            "valid",
            clipping(options),
            "one n-gram repeated beyond its max count across up to 8 references with different counts",
        ),
        Family(
            "valid/token-identity",
            "valid",
            token_identity(options),
            "tokens with spaces, combining marks, astral characters, case variants: exact equality only",
        ),
        Family(
            "valid/short-and-empty",
            "valid",
            short_and_empty(options),
            "hypotheses shorter than n, empty hypotheses and references, max_order 2..8",
        ),
        Family(
            "valid/segment-boundaries",
            "valid",
            segment_boundaries(options),
            "a reference n-gram split across hypothesis segments (n-grams never cross segments)",
        ),
        Family(
            "valid/reference-lengths",
            "valid",
            reference_lengths(options),
            "closest reference length with ties, all shorter, all longer, empty hypothesis",
        ),
    ]


# --- boundary: each limit exactly at and just past ----------------------------------


def simple_corpus(segments: int, hypothesis: Tokens, reference: Tokens) -> tuple[list[Tokens], list[list[Tokens]]]:
    """``segments`` copies of one small segment (big inputs are built by repetition, not drawn)."""
    return [list(hypothesis) for _ in range(segments)], [[list(reference)] for _ in range(segments)]


def token_of_bytes(size: int, width: int) -> str:
    """A token of exactly ``size`` UTF-8 bytes: 1-byte padding, then characters ``width`` bytes wide.

    Ending on a wide character makes the last character straddle a limit that the token crosses.
    """
    return "a" * (size % width) + CHARACTER_OF_WIDTH[width] * (size // width)


def bytes_of(text: str) -> int:
    return len(text.encode("utf-8"))


def tokens_totalling(total_bytes: int, width: int, max_token_bytes: int) -> Tokens:
    """Tokens of at most ``max_token_bytes`` bytes whose UTF-8 sizes sum to exactly ``total_bytes``."""
    full, rest = divmod(total_bytes, max_token_bytes)
    sizes = [max_token_bytes] * full
    if rest and rest < width and full:  # too small to end on a wide character: share the last full token
        half = max_token_bytes // 2
        sizes[-1:] = [half, max_token_bytes - half + rest]
    elif rest:
        sizes.append(rest)
    return [token_of_bytes(size, min(width, size)) for size in sizes]


def boundary_families(
    tool_id: str, version: str, options: st.SearchStrategy[dict], large_input_options: st.SearchStrategy[dict]
) -> list[Family]:
    """``options`` for small inputs; ``large_input_options`` for the inputs of thousands of tokens."""
    limit = limits(tool_id, version)
    max_token_code_points = input_schema(tool_id, version)["properties"]["hypotheses"]["items"]["items"]["maxLength"]

    @composite
    def max_segments(draw):
        past = draw(st.booleans())
        count = limit["max_segments"] + (1 if past else 0)
        hypotheses, references = simple_corpus(
            count, draw(st.sampled_from((["the", "cat"], [], ["a b"]))), ["the", "cat"]
        )
        payload = with_options(hypotheses, references, draw(large_input_options))
        expect = ANY_ERROR if past else EXPECT_OUTPUT  # maxItems mirrors max_segments (A6)
        return case(payload, expect, f"{count} segments (max_segments {limit['max_segments']})")

    @composite
    def max_references(draw):
        past = draw(st.booleans())
        count = limit["max_references_per_segment"] + (1 if past else 0)
        references = [draw(st.lists(st.sampled_from(WORDS), max_size=4)) for _ in range(count)]
        hypotheses, others = [["the", "cat"]], []
        if draw(st.booleans()):  # the crowded segment second, after an ordinary one
            hypotheses, others = [["a"], ["the", "cat"]], [[["a"]]]
        payload = with_options(hypotheses, others + [references], draw(options))
        expect = ANY_ERROR if past else EXPECT_OUTPUT  # maxItems mirrors max_references_per_segment (A6)
        return case(payload, expect, f"{count} references in one segment (max {limit['max_references_per_segment']})")

    @composite
    def token_bytes(draw):
        past = draw(st.booleans())
        size = limit["max_token_bytes"] + (1 if past else 0)
        width = draw(st.sampled_from((1, 2, 3, 4)))
        mixed = draw(st.booleans())
        token = token_of_bytes(size, width)
        if mixed:  # characters of every width, ending on a wide one that straddles the limit
            head = "a\u00e9\u20ac\U0001f600" * 12  # 120 bytes
            tail_width = draw(st.sampled_from((2, 3, 4)))
            token = head + "a" * (size - 120 - tail_width) + CHARACTER_OF_WIDTH[tail_width]
        assert bytes_of(token) == size
        in_reference = draw(st.booleans())
        hypotheses, references = [["the", "cat"]], [[["the", "cat"]]]
        if in_reference:
            references = [[["the", token, "cat"]]]
        else:
            hypotheses = [["the", token]]
        payload = with_options(hypotheses, references, draw(options))
        if not past:
            expect = EXPECT_OUTPUT
        elif len(token) <= max_token_code_points:
            expect = LIMIT_EXCEEDED  # only max_token_bytes is broken
        else:
            expect = ANY_ERROR  # also more than maxLength code points (A6)
        where = "a reference" if in_reference else "the hypothesis"
        return case(
            payload,
            expect,
            f"a token of {size} UTF-8 bytes and {len(token)} code points in {where} (max_token_bytes {limit['max_token_bytes']})",
        )

    @composite
    def total_tokens(draw):
        past = draw(st.booleans())
        segments = draw(st.sampled_from((1, 7, 100, 1000)))
        if past:  # hypothesis tokens alone exceed the limit: every reading rejects (A1)
            base, extra = divmod(limit["max_total_tokens"] + 1, segments)
            hypotheses = [["the"] * (base + (1 if i < extra else 0)) for i in range(segments)]
            references = [[["the"]] for _ in range(segments)]
            expect, what = LIMIT_EXCEEDED, f"{limit['max_total_tokens'] + 1} hypothesis tokens alone"
        else:  # hypothesis plus reference tokens exactly at the limit: every reading accepts (A1)
            half = limit["max_total_tokens"] // (2 * segments)
            hypotheses = [["the", "cat"] * (half // 2) + ["the"] * (half % 2) for _ in range(segments)]
            references = [[["cat", "the"] * (half // 2) + ["cat"] * (half % 2)] for _ in range(segments)]
            spare = limit["max_total_tokens"] - 2 * half * segments
            hypotheses[0] += ["mat"] * spare
            expect, what = EXPECT_OUTPUT, f"{limit['max_total_tokens']} tokens counting hypotheses and references"
        payload = with_options(hypotheses, references, draw(large_input_options))
        return case(payload, expect, f"{what} over {segments} segments (max_total_tokens {limit['max_total_tokens']})")

    @composite
    def total_token_bytes(draw):
        past = draw(st.booleans())
        width = draw(st.sampled_from((1, 2, 3, 4)))
        if past:  # hypothesis tokens alone one byte over: every reading rejects (A1)
            hypothesis = tokens_totalling(limit["max_total_token_bytes"] + 1, width, limit["max_token_bytes"])
            payload = with_options([hypothesis], [[["the"]]], draw(large_input_options))
            return case(
                payload,
                LIMIT_EXCEEDED,
                f"hypothesis tokens alone total {limit['max_total_token_bytes'] + 1} UTF-8 bytes "
                f"({width}-byte characters; max_total_token_bytes {limit['max_total_token_bytes']})",
            )
        # hypotheses and references together exactly at the limit
        share = draw(st.sampled_from((0.5, 0.25, 0.9)))
        hypothesis_bytes = int(limit["max_total_token_bytes"] * share)
        hypothesis = tokens_totalling(hypothesis_bytes, width, limit["max_token_bytes"])
        reference_width = draw(st.sampled_from((1, 2, 3, 4)))
        reference = tokens_totalling(
            limit["max_total_token_bytes"] - hypothesis_bytes, reference_width, limit["max_token_bytes"]
        )
        payload = with_options([hypothesis], [[reference]], draw(large_input_options))
        return case(
            payload,
            EXPECT_OUTPUT,
            f"hypothesis and reference tokens total exactly {limit['max_total_token_bytes']} UTF-8 bytes "
            f"({width}-byte characters)",
        )

    @composite
    def max_order_extremes(draw):
        segment = draw(derived_segment())
        max_order = draw(st.sampled_from((1, 8)))
        payload = with_options([segment[0]], [segment[1]], {**draw(options), "max_order": max_order})
        return case(payload, EXPECT_OUTPUT, f"max_order {max_order}; the hypothesis {segment[2]}")

    return aiming.with_aims(
        [
            Family("boundary/max-segments", "boundary", max_segments(), "max_segments exactly and one past"),
            Family("boundary/max-references", "boundary", max_references(), "8 and 9 references in one segment"),
            Family(
                "boundary/token-bytes",
                "boundary",
                token_bytes(),
                "tokens of exactly 128 and 129 UTF-8 bytes of 1-, 2-, 3-, 4-byte and mixed characters",
            ),
            Family(
                "boundary/total-tokens",
                "boundary",
                total_tokens(),
                "50,000 tokens in all (accepted) and 50,001 hypothesis tokens alone (rejected)",
            ),
            Family(
                "boundary/total-token-bytes",
                "boundary",
                total_token_bytes(),
                "1,048,576 token bytes in all (accepted) and 1,048,577 in hypotheses alone (rejected)",
            ),
            Family("boundary/max-order", "boundary", max_order_extremes(), "max_order 1 and 8"),
            # maxItems mirrors max_references_per_segment (A6)
            *limit_forms.bleu_token_families(
                tool_id, version, limit_forms.corpus_shape, limit["max_segments"], ANY_ERROR
            ),
        ],
        boundary_features(),
    )


LIMIT_SIDES = aiming.LIMIT_SIDES


def _longest_token(generated) -> str:
    return max(aiming.tokens(generated.input), key=bytes_of, default="")


def boundary_features() -> dict[str, aiming.Features]:
    multi_byte = any_token(aiming.multi_byte)
    return {
        "boundary/max-segments": LIMIT_SIDES,
        "boundary/max-references": {
            **LIMIT_SIDES,
            "the crowded segment after an ordinary one": lambda g: len(g.input["hypotheses"]) == 2,
        },
        "boundary/token-bytes": {
            **LIMIT_SIDES,
            "the long token in a reference": lambda g: _longest_token(g) not in g.input["hypotheses"][0],
            "the long token in the hypothesis": lambda g: _longest_token(g) in g.input["hypotheses"][0],
            "a multi-byte character straddling the limit": lambda g: aiming.utf8_width(_longest_token(g)[-1]) > 1,
            "characters of every UTF-8 width in one token": lambda g: (
                {aiming.utf8_width(ch) for ch in _longest_token(g)} == {1, 2, 3, 4}
            ),
        },
        "boundary/total-tokens": {
            **LIMIT_SIDES,
            "spread over 100 segments or more": lambda g: len(g.input["hypotheses"]) >= 100,
        },
        "boundary/total-token-bytes": {**LIMIT_SIDES, "multi-byte characters": multi_byte},
        "boundary/max-order": {"max_order 1": option("max_order", 1), "max_order 8": option("max_order", 8)},
    }


# --- invalid: exactly one rule broken ------------------------------------------------

NON_OBJECTS: tuple[object, ...] = (
    [],
    [{"hypotheses": [["a"]], "references": [[["a"]]]}],
    "hypotheses",
    0,
    3.5,
    None,
    True,
)


def not_an_object() -> Family:
    return Family(
        "invalid/not-an-object",
        "invalid",
        sampled_by_index(NON_OBJECTS).map(
            lambda value: case(value, INVALID_INPUT, f"top level is {value!r}, not an object")
        ),
        "the input is an array, string, number, null or boolean",
    )


@composite
def ordinary_corpus(draw) -> dict:
    """A small valid input with at least one token on each side of every segment."""
    segments = draw(st.integers(1, 3))
    hypotheses = [draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)) for _ in range(segments)]
    references = [
        draw(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), min_size=1, max_size=3))
        for _ in range(segments)
    ]
    return {"hypotheses": hypotheses, "references": references}


# A mutation breaks one rule of a valid payload in place, drawing its choices with ``draw``,
# and says what it broke.
Mutation = Callable[[dict, Callable], str]


def _pick(draw: Callable, items: list) -> int:
    return draw(st.integers(0, len(items) - 1))


def _wrong_hypotheses(payload: dict, draw: Callable) -> str:
    payload["hypotheses"] = draw(st.sampled_from((None, "the cat", {"0": ["the"]}, 1, True)))
    return f"hypotheses is {payload['hypotheses']!r}"


def _wrong_hypothesis(payload: dict, draw: Callable) -> str:
    i = _pick(draw, payload["hypotheses"])
    payload["hypotheses"][i] = draw(st.sampled_from((None, "the cat", {"0": "the"}, 1, False)))
    return f"hypotheses[{i}] is {payload['hypotheses'][i]!r}"


def _wrong_hypothesis_token(payload: dict, draw: Callable) -> str:
    i = _pick(draw, payload["hypotheses"])
    j = _pick(draw, payload["hypotheses"][i])
    payload["hypotheses"][i][j] = draw(st.sampled_from((None, True, 0, 1.5, ["the"], {"t": "the"})))
    return f"hypotheses[{i}][{j}] is {payload['hypotheses'][i][j]!r}"


def _wrong_references(payload: dict, draw: Callable) -> str:
    payload["references"] = draw(st.sampled_from((None, "the cat", {"0": [["the"]]}, 1, False)))
    return f"references is {payload['references']!r}"


def _wrong_reference_segment(payload: dict, draw: Callable) -> str:
    i = _pick(draw, payload["references"])
    payload["references"][i] = draw(st.sampled_from((None, "the cat", {"0": ["the"]}, 2, True)))
    return f"references[{i}] is {payload['references'][i]!r}"


def _wrong_reference(payload: dict, draw: Callable) -> str:
    i = _pick(draw, payload["references"])
    k = _pick(draw, payload["references"][i])
    payload["references"][i][k] = draw(st.sampled_from((None, "the cat", {"0": "the"}, 3, True)))
    return f"references[{i}][{k}] is {payload['references'][i][k]!r}"


def _wrong_reference_token(payload: dict, draw: Callable) -> str:
    i = _pick(draw, payload["references"])
    k = _pick(draw, payload["references"][i])
    j = _pick(draw, payload["references"][i][k])
    payload["references"][i][k][j] = draw(st.sampled_from((None, False, 7, 0.5, ["the"], {})))
    return f"references[{i}][{k}][{j}] is {payload['references'][i][k][j]!r}"


def _empty_token(payload: dict, draw: Callable) -> str:
    if draw(st.booleans()):
        i = _pick(draw, payload["hypotheses"])
        j = draw(st.integers(0, len(payload["hypotheses"][i])))
        payload["hypotheses"][i].insert(j, "")
        return f'hypotheses[{i}][{j}] is the empty token ""'
    i = _pick(draw, payload["references"])
    k = _pick(draw, payload["references"][i])
    j = draw(st.integers(0, len(payload["references"][i][k])))
    payload["references"][i][k].insert(j, "")
    return f'references[{i}][{k}][{j}] is the empty token ""'


def _no_references_in_segment(payload: dict, draw: Callable) -> str:
    i = _pick(draw, payload["references"])
    payload["references"][i] = []
    return f"references[{i}] has no reference (minItems 1)"


def _no_segments(payload: dict, draw: Callable) -> str:
    payload["hypotheses"], payload["references"] = [], []
    return "hypotheses and references are both empty (minItems 1)"


def _unknown_key(payload: dict, draw: Callable) -> str:
    key = draw(st.sampled_from(("smoothing", "Hypotheses", "max_order ", "tokenize", "lowercase", "weights", "")))
    payload[key] = draw(st.sampled_from((True, 4, "none", None)))
    return f"unknown key {key!r}"


def _missing_key(payload: dict, draw: Callable) -> str:
    key = draw(st.sampled_from(("hypotheses", "references")))
    del payload[key]
    return f"required key {key!r} is missing"


def bad_option(key: str, values: tuple) -> Mutation:
    def mutate(payload: dict, draw: Callable) -> str:
        payload[key] = draw(st.sampled_from(values))
        return f"{key} is {payload[key]!r}"

    mutate.__name__ = f"_bad_{key}"
    return mutate


BAD_MAX_ORDER = bad_option("max_order", (0, 9, -1, 100, 2**63, 4.5, "4", True, None, [4]))
WRONG_TYPE, OPTION_BROKEN = "a wrong type at some level", "an option out of range or of the wrong type"
SCHEMA_RULE_BROKEN: dict[Mutation, str] = {  # the aimed feature each mutation gives (any other: an option)
    **dict.fromkeys(
        (
            _wrong_hypotheses,
            _wrong_hypothesis,
            _wrong_hypothesis_token,
            _wrong_references,
            _wrong_reference_segment,
            _wrong_reference,
            _wrong_reference_token,
        ),
        WRONG_TYPE,
    ),
    **dict.fromkeys(
        (_empty_token, _no_references_in_segment, _no_segments), "an empty token or list (minLength, minItems 1)"
    ),
    _unknown_key: "an unknown key",
    _missing_key: "a missing key",
}
SCHEMA_MUTATIONS: tuple[Mutation, ...] = (
    _wrong_hypotheses,
    _wrong_hypothesis,
    _wrong_hypothesis_token,
    _wrong_references,
    _wrong_reference_segment,
    _wrong_reference,
    _wrong_reference_token,
    _empty_token,
    _no_references_in_segment,
    _no_segments,
    _unknown_key,
    _missing_key,
    BAD_MAX_ORDER,
)


def invalid_families(
    tool_id: str, version: str, options: st.SearchStrategy[dict], option_mutations: tuple[Mutation, ...]
) -> list[Family]:
    limit = limits(tool_id, version)

    @composite
    def schema(draw):
        payload = {**draw(ordinary_corpus()), **{k: v for k, v in draw(options).items() if v is not None}}
        mutation = draw(st.sampled_from(SCHEMA_MUTATIONS + option_mutations))
        what = mutation(payload, draw)
        aimed(SCHEMA_RULE_BROKEN.get(mutation, OPTION_BROKEN))
        return case(payload, INVALID_INPUT, f"breaks one schema rule: {what}")

    @composite
    def segment_counts(draw):
        payload = {**draw(ordinary_corpus()), **{k: v for k, v in draw(options).items() if v is not None}}
        hypotheses, references = payload["hypotheses"], payload["references"]
        # A hypothesis without references: more reference segments than hypotheses might be
        # ignored by a reasonable implementation (the BLEU contracts never require equal counts).
        hypotheses.append(draw(st.sampled_from((["the"], []))))
        return case(
            payload, INVALID_INPUT, f"{len(hypotheses)} hypothesis segments but {len(references)} reference segments"
        )

    @composite
    def over_limits(draw):
        # the totals (max_total_tokens, max_total_token_bytes) are exceeded in boundary/, where
        # one case is as costly as it needs to be; here every case stays small
        which = draw(st.sampled_from(("token-bytes", "token-code-points", "segments", "references")))
        payload = {"hypotheses": [["the", "cat"]], "references": [[["the", "cat"]]]}
        if which == "token-bytes":  # max_token_bytes only: at most 128 code points
            wide_characters = draw(st.integers(limit["max_token_bytes"] // 4 + 1, max_token_len))
            payload["hypotheses"][0].append(token_of_bytes(4 * wide_characters, 4))
            return case(payload, LIMIT_EXCEEDED, "a hypothesis token far over max_token_bytes in few code points")
        if which == "token-code-points":
            payload["references"][0][0].append("a" * draw(st.integers(max_token_len + 1, 400)))
            return case(payload, ANY_ERROR, "a reference token over both maxLength and max_token_bytes (A6)")
        if which == "segments":
            count = draw(st.integers(limit["max_segments"] + 1, limit["max_segments"] + 500))
            payload["hypotheses"], payload["references"] = simple_corpus(count, ["a"], ["a"])
            return case(payload, ANY_ERROR, f"{count} segments: maxItems and max_segments (A6)")
        count = draw(st.integers(limit["max_references_per_segment"] + 1, 20))
        payload["references"] = [[["the"] for _ in range(count)]]
        return case(payload, ANY_ERROR, f"{count} references: maxItems and max_references_per_segment (A6)")

    max_token_len = input_schema(tool_id, version)["properties"]["hypotheses"]["items"]["items"]["maxLength"]
    return aiming.with_aims(
        [
            not_an_object(),
            Family(
                "invalid/schema",
                "invalid",
                schema(),
                "one schema rule broken: a wrong type at each level, null, empty token, unknown or missing key, "
                "minItems, an option out of range",
                aims=tuple(dict.fromkeys([*SCHEMA_RULE_BROKEN.values(), OPTION_BROKEN])),
            ),
            Family(
                "invalid/segment-counts",
                "invalid",
                segment_counts(),
                "a hypothesis segment without references (more hypothesis than reference segments)",
            ),
            Family(
                "invalid/limits",
                "invalid",
                over_limits(),
                "token bytes, segments, references clearly over their limits ('any' where a schema rule mirrors one)",
            ),
        ],
        {
            "invalid/not-an-object": aiming.NOT_AN_OBJECT,
            "invalid/segment-counts": {
                "an extra empty hypothesis": lambda g: g.input["hypotheses"][-1] == [],
                "an extra non-empty hypothesis": lambda g: g.input["hypotheses"][-1] != [],
            },
            "invalid/limits": over_token_limits(limit["max_token_bytes"], max_token_len)
            | {
                "over max_segments": lambda g: len(g.input["hypotheses"]) > limit["max_segments"],
                "over max_references_per_segment": in_a_segment(
                    lambda h, refs: len(refs) > limit["max_references_per_segment"]
                ),
            },
        },
    )


def over_token_limits(max_token_bytes: int, max_code_points: int) -> dict[str, aiming.Predicate]:
    return {
        "a token over max_token_bytes within maxLength code points": any_token(
            lambda t: bytes_of(t) > max_token_bytes and len(t) <= max_code_points
        ),
        "a token over maxLength code points": any_token(lambda t: len(t) > max_code_points),
    }


# --- inputs crossing representation boundaries ---------------------------------------


def representation_families(
    tool_id: str,
    version: str,
    options: st.SearchStrategy[dict],
    many_token_options: dict,
    wide_options: tuple[dict, dict],
) -> list[Family]:
    """Widths, joined and packed keys, inherited names as keys, shared by the corpus tools;
    ``many_token_options`` (fixed) for inputs of hundreds or thousands of distinct tokens (the
    output stays small); ``wide_options``: the fixed options of the 32,768-token inputs, in one
    segment and in many."""
    from conformance.strategies import keys, widths

    limit = limits(tool_id, version)
    return [
        keys.joined_key_collisions(options),
        keys.last_token_family(many_token_options),
        keys.last_token_family(many_token_options, keys.THOUSANDS),
        widths.wide_counts_family(limit["max_total_tokens"], limit["max_segments"], *wide_options),
        keys.property_named_keys(ordinary_corpus()),
    ]
