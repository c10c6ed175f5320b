"""Integer widths: accepted inputs whose counts, lengths and sums cross 2^15, 2^16 and 2^20.

An implementation that keeps a count in 16 bits (an Int16Array, a uint16 field) wraps or
saturates there; these inputs put one side far past the boundary while the other stays small
(more than 32,767 hypothesis tokens against a few reference tokens, and the reverse), so a
wrapped count shows in the output or moves the score.

Every input stays within the limits under every reading of the open points: the token totals
count hypothesis AND reference tokens (the strictest reading of A1), bytes stay far under the
byte limits, and no detail level makes the output approach its size limit (A2). These are big
inputs: the families are boundary families (few examples each).
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies.base import EXPECT_OUTPUT, Family, aimed, case, composite

Tokens = list[str]

INT16_LIMIT = 2**15  # an Int16 holds up to 32,767
UINT16_LIMIT = 2**16
UINT20_LIMIT = 2**20  # bleu-brevity-penalty's max_length is exactly 2^20

# The big side cycles through words the small side shares, so matches exist.
SMALL_SIDE = ("the", "cat", "sat", "on", "a", "mat")


def crossing(draw, boundary: int, largest: int) -> int:
    """The boundary itself, one past it, or anywhere past it, at most ``largest``."""
    near = [value for value in (boundary, boundary + 1) if value <= largest]
    past = st.integers(boundary, largest) if largest > boundary + 1 else st.nothing()
    return draw(st.one_of(st.sampled_from(near), past))


def split(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` shares as equal as integers allow."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def cycled(tokens: tuple[str, ...], count: int) -> Tokens:
    return [tokens[i % len(tokens)] for i in range(count)]


# --- pre-tokenized BLEU inputs ---------------------------------------------------------


# The layouts of the big side: one n-gram repeated in one segment (its count and max_reference_count
# cross too), or the sum of 1000 small segments crossing.
LAYOUTS = {"one-ngram": (1, ("the",)), "many-segments": (None, ("the", "cat"))}


def wide_token_corpus(layout: str, big_side: str, max_segments: int):
    """(hypotheses, references, description): 32,768 tokens on ``big_side`` (just past Int16), the
    other side a few tokens per segment; one reference per segment, so r crosses with the big side."""
    segments, cycle = LAYOUTS[layout]
    segments = segments or max_segments
    big_lists = [cycled(cycle, n) for n in split(INT16_LIMIT, segments)]
    small_lists = [cycled(SMALL_SIDE, n) for n in split(max(segments, len(SMALL_SIDE)), segments)]
    if big_side == "hypothesis":
        hypotheses, references = big_lists, [[tokens] for tokens in small_lists]
    else:
        hypotheses, references = small_lists, [[tokens] for tokens in big_lists]
    description = (
        f"{INT16_LIMIT} {big_side} tokens over {segments} segment(s) (cycling {list(cycle)}) against "
        f"{sum(map(len, small_lists))} tokens on the other side: counts and sums past 2^15"
    )
    return hypotheses, references, description


def wide_counts_family(
    max_total_tokens: int, max_segments: int | None, options: dict, many_segment_options: dict
) -> Family:
    """Corpus inputs (``max_segments`` None: one segment only); few examples, each big: one n-gram
    32,768 times on either side, 32,768 hypothesis tokens over max_segments segments; fixed options
    (``many_segment_options`` for the many-segment layout)."""
    # the reference side's sum over many segments adds nothing the one-segment case does not test
    combinations = (("one-ngram", "hypothesis"), ("one-ngram", "reference"), ("many-segments", "hypothesis"))
    assert INT16_LIMIT + (max_segments or len(SMALL_SIDE)) <= max_total_tokens  # A1: both sides counted

    @composite
    def build(draw):
        layout, big_side = draw(st.sampled_from(combinations if max_segments else combinations[:2]))
        hypotheses, references, description = wide_token_corpus(layout, big_side, max_segments or 1)
        aimed(f"{big_side}-tokens>32767")
        if layout == "one-ngram":
            aimed("one-ngram-count>32767")  # a single n-gram's count (or max_reference_count) crosses too
        chosen = many_segment_options if layout == "many-segments" else options
        return case({"hypotheses": hypotheses, "references": references, **chosen}, EXPECT_OUTPUT, description)

    aims = ("hypothesis-tokens>32767", "reference-tokens>32767", "one-ngram-count>32767")
    return Family(
        "boundary/wide-counts",
        "boundary",
        build(),
        "32,768 hypothesis tokens against a few reference tokens, and the reverse (Int16 counters)",
        aims=aims,
    )


# --- lengths only (bleu-brevity-penalty) -------------------------------------------------


# 2^20 first and most often: a sum past it is past the smaller boundaries too
WIDTH_SIDES = tuple(
    (b, side)
    for b in (UINT20_LIMIT, INT16_LIMIT, UINT20_LIMIT, UINT16_LIMIT, UINT20_LIMIT)
    for side in ("candidate", "reference")
)


def wide_lengths_family(max_length: int, max_segments: int, decimals: st.SearchStrategy) -> Family:
    """Candidate or reference lengths whose sum (c or r) crosses 2^15, 2^16 or 2^20, the other side small."""

    @composite
    def build(draw):
        boundary, big_side = draw(st.sampled_from(WIDTH_SIDES))
        segments = draw(st.sampled_from((1, 2, 3, 40))) if boundary < max_length else draw(st.sampled_from((2, 3, 40)))
        big = crossing(draw, boundary, min(segments * max_length, 4 * boundary))
        big_lengths = split(big, segments)
        small_lengths = [draw(st.integers(0, 50)) for _ in range(segments)]
        if big_side == "candidate":
            candidates, references = big_lengths, [[n] for n in small_lengths]
        else:
            candidates, references = small_lengths, [[n] for n in big_lengths]
        payload = {"candidate_lengths": candidates, "reference_lengths": references}
        chosen = draw(decimals)
        if chosen is not None:
            payload["decimals"] = chosen
        for crossed in (b for b in (INT16_LIMIT, UINT16_LIMIT, UINT20_LIMIT) if big >= b):
            aimed(f"{big_side}-sum>{crossed - 1}")
        return case(
            payload,
            EXPECT_OUTPUT,
            f"{big_side} lengths summing to {big} over {segments} segment(s) (around 2^{boundary.bit_length() - 1}), "
            f"the other side {sum(small_lengths)}",
        )

    aims = tuple(
        f"{side}-sum>{b - 1}" for side in ("candidate", "reference") for b in (INT16_LIMIT, UINT16_LIMIT, UINT20_LIMIT)
    )
    return Family(
        "boundary/wide-lengths",
        "boundary",
        build(),
        "c or r past 2^15, 2^16 and 2^20 (the other small): 16- and 20-bit sums",
        aims=aims,
    )


# --- texts (chrF tools) ------------------------------------------------------------------

TEXT_WORDS = ("the", "cat", "sat", "mat", "dog")


def text_of_characters(characters: int, words: tuple[str, ...]) -> str:
    """Words joined by single spaces with exactly ``characters`` non-whitespace code points."""
    parts, count, i = [], 0, 0
    while count < characters:
        word = words[i % len(words)][: characters - count]
        parts.append(word)
        count += len(word)
        i += 1
    return " ".join(parts)


def wide_text(unit: str, max_text_bytes: int) -> tuple[str, str, int]:
    """(big text, small text, count) of a unit: 32,768 characters in words of three letters; 32,768
    one-letter words (65,535 bytes, the small text one byte); or one word of every byte, 65,536
    characters (past 2^16, the small text empty)."""
    if unit == "words":
        return " ".join(cycled(("a", "b"), INT16_LIMIT)), "a", INT16_LIMIT
    if unit == "one-word":
        return "ab" * (max_text_bytes // 2), "", max_text_bytes
    return text_of_characters(INT16_LIMIT, TEXT_WORDS), "the cat", INT16_LIMIT


# (unit, side of the big text): 65,536 characters in the hypothesis; 32,768 one-letter words (and
# characters) on either side
TEXT_CASES = (("one-word", "hypotheses"), ("words", "hypotheses"), ("words", "references"))


def wide_texts_family(max_text_bytes: int, options_by_unit: dict[str, dict] | None = None) -> Family:
    """One text past 32,767 characters (or words), the other small, on either side: the n-gram
    counts of every order cross 2^15; one text of 65,536 characters crosses 2^16. Few examples,
    each big (TEXT_CASES), with ``options_by_unit`` (fixed) added."""
    assert all(
        len(big.encode("utf-8")) + len(small) <= max_text_bytes
        for big, small, _ in (wide_text(unit, max_text_bytes) for unit, _ in TEXT_CASES)
    )

    @composite
    def build(draw):
        unit, big_side = draw(st.sampled_from(TEXT_CASES))
        big_text, small_text, count = wide_text(unit, max_text_bytes)
        aimed("characters>32767")
        if unit == "words":
            aimed("words>32767")
        if count >= UINT16_LIMIT:
            aimed("characters>65535")
        texts = {"hypotheses": [big_text], "references": [small_text]}
        if big_side == "references":
            texts = {"hypotheses": [small_text], "references": [big_text]}
        options = (options_by_unit or {}).get(unit, {})
        return case(
            {**texts, **options},
            EXPECT_OUTPUT,
            f"one {big_side.removesuffix('s').removesuffix('e')} of {count} {'words' if unit == 'words' else 'characters'} "
            f"({len(big_text.encode('utf-8'))} bytes) against {small_text!r}: n-gram counts past 2^15",
        )

    return Family(
        "boundary/wide-counts",
        "boundary",
        build(),
        "a text past 32,767 characters or words against a short one, and the reverse (Int16 counters)",
        aims=("characters>32767", "words>32767", "characters>65535"),
    )
