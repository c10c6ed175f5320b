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

from conformance.strategies.base import EXPECT_OUTPUT, Family, aimed, case

Tokens = list[str]

INT16_LIMIT = 2**15  # an Int16 holds up to 32,767
UINT16_LIMIT = 2**16
UINT20_LIMIT = 2**20  # bleu-brevity-penalty's max_length is exactly 2^20

# The tokens of the big side cycle through a few words the small side shares, so matches exist.
CYCLES = (("the",), ("the", "cat"), ("the", "cat", "sat"))
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


def record_widths(big: int, where: str) -> None:
    aimed(f"{where}>32767")
    if big >= UINT16_LIMIT:
        aimed(f"{where}>65535")


# --- pre-tokenized BLEU inputs ---------------------------------------------------------


@st.composite
def wide_token_corpus(draw, max_total_tokens: int, segment_counts: tuple[int, ...], max_references: int):
    """(hypotheses, references, description): one side past 32,767 tokens in all, the other small.

    The big side's token count is the corpus sum over its segments (one segment, or many whose
    sum crosses while each is small); the small side has at most 40 tokens in all."""
    big_side = draw(st.sampled_from(("hypothesis", "reference")))
    segments = draw(st.sampled_from(segment_counts))
    small_total = draw(st.integers(segments, max(segments, 40)))  # at least one small token per segment
    big = crossing(draw, INT16_LIMIT, max_total_tokens - small_total)
    cycle = draw(st.sampled_from(CYCLES))
    big_lists = [cycled(cycle, n) for n in split(big, segments)]
    small_lists = [cycled(SMALL_SIDE, n) for n in split(small_total, segments)]
    if big_side == "hypothesis":
        hypotheses, references = big_lists, [[tokens] for tokens in small_lists]
    else:
        references_per_segment = draw(st.integers(1, max_references)) if segments == 1 else 1
        hypotheses = small_lists
        references = [[cycled(cycle, n) for n in split(count, references_per_segment)] for count in split(big, segments)]
    record_widths(big, f"{big_side}-tokens")
    if len(cycle) == 1 and segments == 1:
        aimed("one-ngram-count>32767")  # a single n-gram's count (or max_reference_count) crosses too
    description = (f"{big} {big_side} tokens over {segments} segment(s) (cycling {list(cycle)}) against "
                   f"{small_total} tokens on the other side: counts and sums past 2^15 "
                   f"(both sides together within max_total_tokens {max_total_tokens})")
    return hypotheses, references, description


def wide_counts_family(max_total_tokens: int, segment_counts: tuple[int, ...], max_references: int,
                       options: st.SearchStrategy[dict], many_segment_options: st.SearchStrategy[dict]) -> Family:
    """Corpus inputs of ``segment_counts`` segments; ``many_segment_options`` past 3 segments."""

    @st.composite
    def build(draw):
        hypotheses, references, description = draw(wide_token_corpus(max_total_tokens, segment_counts, max_references))
        chosen = draw(options if len(hypotheses) <= 3 else many_segment_options)
        chosen = {key: value for key, value in chosen.items() if value is not None}
        payload = {"hypotheses": hypotheses, "references": references, **chosen}
        return case(payload, EXPECT_OUTPUT, description)

    aims = ("hypothesis-tokens>32767", "reference-tokens>32767", "one-ngram-count>32767")
    return Family("boundary/wide-counts", "boundary", build(),
                  "more than 32,767 hypothesis tokens against a few reference tokens, and the reverse (Int16 counters)",
                  aims=aims)


# --- lengths only (bleu-brevity-penalty) -------------------------------------------------


# 2^20 first and most often: a sum past it is past the smaller boundaries too
WIDTH_SIDES = tuple((b, side) for b in (UINT20_LIMIT, INT16_LIMIT, UINT20_LIMIT, UINT16_LIMIT, UINT20_LIMIT)
                    for side in ("candidate", "reference"))


def wide_lengths_family(max_length: int, max_segments: int, decimals: st.SearchStrategy) -> Family:
    """Candidate or reference lengths whose sum (c or r) crosses 2^15, 2^16 or 2^20, the other side small."""

    @st.composite
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
        return case(payload, EXPECT_OUTPUT,
                    f"{big_side} lengths summing to {big} over {segments} segment(s) (around 2^{boundary.bit_length() - 1}), "
                    f"the other side {sum(small_lengths)}")

    aims = tuple(f"{side}-sum>{b - 1}" for side in ("candidate", "reference") for b in (INT16_LIMIT, UINT16_LIMIT, UINT20_LIMIT))
    return Family("boundary/wide-lengths", "boundary", build(),
                  "c or r past 2^15, 2^16 and 2^20 (the other small): 16- and 20-bit sums", aims=aims)


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


def wide_texts_family(max_text_bytes: int) -> Family:
    """One text past 32,767 characters (or 32,767 words), the other small: the n-gram counts of every
    order cross 2^15; at the byte limit one text of 65,536 characters crosses 2^16."""

    @st.composite
    def build(draw):
        unit = draw(st.sampled_from(("one-word", "words", "characters", "words", "one-word")))  # first
        big_side = draw(st.sampled_from(("hypotheses", "references")))
        small_text = draw(st.sampled_from(("the cat", "a", "the cat sat on the mat", "dog")))
        room = max_text_bytes - len(small_text.encode("utf-8"))
        if unit == "words":  # one-letter words: 2 bytes each but the last; 32,768 of them take 65,535 bytes
            small_text = draw(st.sampled_from(("a", "")))
            count = min(INT16_LIMIT, (max_text_bytes - len(small_text) + 1) // 2)  # the most the limit allows
            big_text = " ".join(cycled(("a", "b"), count))
            aimed("words>32767")
            aimed("characters>32767")  # one letter each
        elif unit == "one-word":  # every byte a character: 65,536 of them, past 2^16, the other side empty
            small_text = ""
            count = max_text_bytes - len(small_text)
            big_text = "ab" * (count // 2) + "a" * (count % 2)
            aimed("characters>65535" if count >= UINT16_LIMIT else "characters>32767")
        else:  # words of 3 letters and a space: 4 bytes per 3 characters
            largest = room * 3 // 4
            count = crossing(draw, INT16_LIMIT, largest)
            big_text = text_of_characters(count, TEXT_WORDS)
            aimed("characters>32767")
        segments = {"hypotheses": [big_text], "references": [small_text]}
        if big_side == "references":
            segments = {"hypotheses": [small_text], "references": [big_text]}
        return case(segments, EXPECT_OUTPUT,
                    f"one {big_side.removesuffix('s').removesuffix('e')} of {count} {'words' if unit == 'words' else 'characters'} "
                    f"({len(big_text.encode('utf-8'))} bytes) against {small_text!r}: n-gram counts past 2^15")

    return Family("boundary/wide-counts", "boundary", build(),
                  "a text past 32,767 characters or words against a short one, and the reverse (Int16 counters)",
                  aims=("characters>32767", "words>32767", "characters>65535"))
