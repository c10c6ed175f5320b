"""Generated cases shared by the chrF tools (chrF, chrF++, chrF with its components).

Each tool module composes these families with its own options. Aimed at: the contract's whitespace list and its near-misses, ASCII punctuation
splitting (one mark per word), Unicode without normalization, lowercasing with
Final_Sigma and U+0130, effective orders (A4: a segment whose reference lacks an
order its hypothesis has), every beta, and the stated validation order. With
lowercase=true every code point comes from the lowercase-safe alphabet (A5).
"""

from __future__ import annotations

import unicodedata

from hypothesis import strategies as st

from conformance.model import Expectation
from conformance.strategies import aiming
from conformance.strategies.aiming import any_text, integral_float, option
from conformance.strategies.alphabets import (
    ASCII_PUNCTUATION,
    ASTRAL_CHARACTERS,
    CHARACTER_OF_WIDTH,
    COMBINING_MARKS,
    NON_ASCII_PUNCTUATION,
    WHITESPACE_NEAR_MISSES,
    contract_whitespace,
    lowercase_safe,
    whitespace_neighbours,
)
from conformance.strategies.base import (
    ANY_ERROR,
    EXPECT_OUTPUT,
    INVALID_INPUT,
    LIMIT_EXCEEDED,
    Family,
    aimed,
    case,
    composite,
    limits,
    sampled_by_index,
)

# with names of JavaScript's built-in object properties: counting n-grams in a plain `{}` breaks on them
WORDS = (
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "dog",
    "is",
    "The",
    "relationship",
    "friendly",
    "hole",
    "read",
    "constructor",
    "toString",
    "__proto__",
)
# Greek and Latin capitals for the lowercase family: Final_Sigma positions and U+0130.
CASED_WORDS = (
    "\u039f\u0394\u039f\u03a3",  # ΟΔΟΣ: final capital sigma -> ς
    "\u03a3\u039f\u03a6\u039f\u03a3",  # ΣΟΦΟΣ: initial sigma -> σ, final -> ς
    "\u03a3",  # Σ alone: no cased letter before it, so σ
    "\u0391\u03a3.",  # ΑΣ. : final before punctuation
    "\u0391\u03a3\u0391",  # ΑΣΑ: medial
    "\u0391'\u03a3",  # Α'Σ: apostrophe is case-ignorable
    "\u0391\u03a3\u0301",  # ΑΣ + combining acute: still final
    "\u0391\u03a3'\u0391",  # ΑΣ'Α: followed by a cased letter across an ignorable
    "\u03c3\u03c2",  # σς: already lowercase
    "\u0130",  # İ -> i + U+0307 (one code point becomes two)
    "\u0130STANBUL",
    "I\u0307",
    "\u00c9T\u00c9",
    "\u00dfTRASSE",
    "\u0416\u0418\u0417\u041d\u042c",  # ЖИЗНЬ
    "\U00010400\U00010401",  # Deseret capitals (astral) -> U+10428, U+10429
    "The",
    "THE",
    "the",
)
BETAS = st.one_of(st.none(), st.sampled_from((1, 2, 3)), st.integers(1, 16))


def join_words(words: list[str], separators: list[str]) -> str:
    text = ""
    for i, word in enumerate(words):
        text += word + (separators[i] if i < len(words) - 1 else "")
    return text


def with_options(draw, hypotheses: list[str], references: list[str], beta=None) -> dict:
    """The payload, with a drawn beta and a lowercase flag that is true only on the safe alphabet (A5)."""
    payload = {"hypotheses": hypotheses, "references": references}
    beta = draw(BETAS) if beta is None else beta
    if beta is not None:
        payload["beta"] = beta
    lowercase_choices = [None, False]
    if lowercase_safe(*hypotheses, *references):
        lowercase_choices.append(True)
    lowercase = draw(st.sampled_from(lowercase_choices))
    if lowercase is not None:
        payload["lowercase"] = lowercase
    return payload


@composite
def derived_words(draw, reference: list[str]) -> tuple[list[str], str]:
    """Hypothesis words made from the reference's words by one aimed edit."""
    edit = draw(st.sampled_from(("copy", "reorder", "drop", "repeat", "recase", "punctuate", "typo", "empty")))
    if edit == "copy" or (not reference and edit != "empty"):
        return list(reference), "copies the reference"
    if edit == "reorder":
        return draw(st.permutations(reference)), "reorders the reference's words"
    if edit == "drop":
        keep = draw(st.lists(st.booleans(), min_size=len(reference), max_size=len(reference)))
        return [w for w, k in zip(reference, keep) if k], "drops some words"
    if edit == "repeat":
        i = draw(st.integers(0, len(reference) - 1))
        return reference[: i + 1] + [reference[i]] * draw(st.integers(1, 4)) + reference[i + 1 :], "repeats a word"
    if edit == "recase":
        i = draw(st.integers(0, len(reference) - 1))
        word = reference[i]
        changed = draw(st.sampled_from((word.upper(), word.lower(), word.title())))
        return reference[:i] + [changed] + reference[i + 1 :], "changes one word's case"
    if edit == "punctuate":
        i = draw(st.integers(0, len(reference) - 1))
        mark = draw(st.sampled_from(ASCII_PUNCTUATION))
        attached = draw(st.sampled_from((reference[i] + mark, mark + reference[i], mark)))
        return reference[:i] + [attached] + reference[i + 1 :], "attaches or adds a punctuation mark"
    if edit == "typo":
        i = draw(st.integers(0, len(reference) - 1))
        word = reference[i]
        return reference[:i] + [word[::-1]] + reference[i + 1 :], "reverses one word's letters"
    return [], "is empty"


def derived_texts() -> st.SearchStrategy:
    @composite
    def build(draw):
        rows = []
        for _ in range(draw(st.integers(1, 4))):
            reference = draw(st.lists(st.sampled_from(WORDS), max_size=10))
            words, how = draw(derived_words(reference))
            rows.append((" ".join(words), " ".join(reference), how))
        payload = with_options(draw, [r[0] for r in rows], [r[1] for r in rows])
        return case(
            payload,
            EXPECT_OUTPUT,
            "hypotheses built from their references: " + "; ".join(f"segment {i} {r[2]}" for i, r in enumerate(rows)),
        )

    return build()


def whitespace_family(whitespace: tuple[str, ...]) -> st.SearchStrategy:
    """Every whitespace code point of the contract as separator, alone and in mixed runs;
    the near-misses (U+200B, U+FEFF, U+180E, U+00AD, U+2060) inside and between words."""
    separator = st.lists(st.sampled_from(whitespace), min_size=1, max_size=3).map("".join)
    near_miss = st.sampled_from(WHITESPACE_NEAR_MISSES)

    @composite
    def text(draw, words: list[str]) -> str:
        if draw(st.integers(0, 4)) == 0:  # one text using every whitespace code point in turn
            separators = [whitespace[i % len(whitespace)] for i in range(max(0, len(words) - 1))]
        else:
            separators = [draw(separator) for _ in range(max(0, len(words) - 1))]
        words = [draw(st.sampled_from((w, w, w[:1] + draw(near_miss) + w[1:], draw(near_miss)))) for w in words]
        edges = st.one_of(st.just(""), separator)
        return draw(edges) + join_words(words, separators) + draw(edges)

    @composite
    def build(draw):
        hypotheses, references = [], []
        for _ in range(draw(st.integers(1, 3))):
            reference_words = draw(st.lists(st.sampled_from(WORDS), max_size=6))
            hypothesis_words, _ = draw(derived_words(reference_words))
            hypotheses.append(draw(text(hypothesis_words)))
            references.append(draw(st.one_of(text(reference_words), separator)))  # sometimes whitespace only
        payload = with_options(draw, hypotheses, references)
        shown = sorted(
            {
                f"U+{ord(ch):04X}"
                for t in hypotheses + references
                for ch in t
                if ch in whitespace + WHITESPACE_NEAR_MISSES
            }
        )
        return case(payload, EXPECT_OUTPUT, f"whitespace and near-misses {', '.join(shown) or 'none'}")

    return build()


def whitespace_neighbours_family(whitespace: tuple[str, ...]) -> st.SearchStrategy:
    """Each code point next to the contract's whitespace list (alphabets.whitespace_neighbours) on one
    side of a pair only: in or between the words of a hypothesis whose reference is the same words
    without it, or the other way round. Kept as the contract says, it costs the pair matches; removed
    (a whitespace range read one too wide), the two texts become alike and score 100."""
    neighbours = whitespace_neighbours(whitespace)

    @composite
    def marked(draw, words: list[str]) -> str:
        if draw(st.integers(0, 3)) == 3:  # every neighbour in turn (not 0: a failure shrinks to one neighbour)
            chosen = list(neighbours)
        else:
            chosen = draw(st.lists(sampled_by_index(neighbours), min_size=1, max_size=3))
        words = list(words)
        for ch in chosen:
            at = draw(st.integers(0, len(words) - 1))
            inside = draw(st.booleans())
            words[at] = words[at][:1] + ch + words[at][1:] if inside else words[at] + " " + ch
        return " ".join(words)

    @composite
    def build(draw):
        hypotheses, references = [], []
        for _ in range(draw(st.integers(1, 3))):
            words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
            plain, with_neighbours = " ".join(words), draw(marked(words))
            hypothesis_marked = draw(st.booleans())
            hypotheses.append(with_neighbours if hypothesis_marked else plain)
            references.append(plain if hypothesis_marked else with_neighbours)
        payload = with_options(draw, hypotheses, references)
        shown = sorted({_code_point(ch) for text in hypotheses + references for ch in text if ch in neighbours})
        return case(payload, EXPECT_OUTPUT, f"next to the whitespace list, on one side of a pair: {', '.join(shown)}")

    return build()


def punctuation_family() -> st.SearchStrategy:
    """ASCII marks at word ends, starts, both, alone and doubled; non-ASCII marks never split."""
    mark = st.sampled_from(ASCII_PUNCTUATION)

    @composite
    def word(draw) -> str:
        base = draw(st.sampled_from(WORDS + ("x", "\U0001d4b3", "don't", "e.g")))
        shape = draw(
            st.sampled_from(("end", "start", "both", "alone", "doubled-end", "doubled-start", "non-ascii", "plain"))
        )
        m, m2 = draw(mark), draw(mark)
        return {
            "end": base + m,
            "start": m + base,
            "both": m + base + m2,
            "alone": m,
            "doubled-end": base + m + m2,
            "doubled-start": m + m2 + base,
            "non-ascii": draw(
                st.sampled_from(
                    (
                        base + draw(st.sampled_from(NON_ASCII_PUNCTUATION)),
                        draw(st.sampled_from(NON_ASCII_PUNCTUATION)) + base,
                    )
                )
            ),
            "plain": base,
        }[shape]

    @composite
    def build(draw):
        hypotheses, references = [], []
        for _ in range(draw(st.integers(1, 3))):
            reference = draw(st.lists(word(), min_size=1, max_size=6))
            # the hypothesis splits or joins the reference's marks, or is a variant of it
            variant = draw(st.sampled_from(("same", "detached", "other")))
            if variant == "detached":
                hypothesis = [
                    part
                    for w in reference
                    for part in ([w[:-1], w[-1]] if len(w) > 1 and w[-1] in ASCII_PUNCTUATION else [w])
                ]
            elif variant == "other":
                hypothesis = draw(st.lists(word(), max_size=6))
            else:
                hypothesis = list(reference)
            hypotheses.append(" ".join(hypothesis))
            references.append(" ".join(reference))
        payload = with_options(draw, hypotheses, references)
        return case(
            payload, EXPECT_OUTPUT, f"punctuation splitting: hypotheses {hypotheses!r}, references {references!r}"
        )

    return build()


def unicode_family() -> st.SearchStrategy:
    """No normalization: precomposed vs combining marks; astral characters inside words and as
    one-code-point words; scripts without spaces."""
    pieces = st.sampled_from(
        (
            "\u00e9",
            "e\u0301",
            "\u00c5",
            "A\u030a",
            "\u212b",
            "\U0001d4b3",
            "\U0001f600",
            "\U0001f44d\U0001f3fd",
            "\U0001f468\u200d\U0001f469",
            "\u6f22\u5b57",
            "\u05e9\u05dc\u05d5\u05dd",
            "\U00010400",
            "\U00020000",
            "\ufb01",
            "fi",
            "\uff21",
        )
    )
    combining = st.sampled_from(COMBINING_MARKS)

    @composite
    def word(draw) -> str:
        shape = draw(st.sampled_from(("piece", "in-word", "combining", "plain", "astral-alone")))
        if shape == "piece":
            return draw(pieces)
        if shape == "in-word":
            w = draw(st.sampled_from(WORDS))
            return w[:1] + draw(pieces) + w[1:]
        if shape == "combining":
            return draw(st.sampled_from(WORDS)) + draw(combining)
        if shape == "astral-alone":
            return draw(st.sampled_from(ASTRAL_CHARACTERS))
        return draw(st.sampled_from(WORDS))

    @composite
    def build(draw):
        hypotheses, references = [], []
        for _ in range(draw(st.integers(1, 3))):
            reference = draw(st.lists(word(), max_size=6))
            hypothesis, _ = draw(derived_words(reference))
            if draw(st.booleans()) and hypothesis:
                hypothesis[0] = draw(word())
            hypotheses.append(" ".join(hypothesis))
            references.append(" ".join(reference))
        payload = with_options(draw, hypotheses, references)
        return case(payload, EXPECT_OUTPUT, f"Unicode without normalization: {hypotheses!r} vs {references!r}")

    return build()


def lowercase_family() -> st.SearchStrategy:
    """Case-only differences with lowercase true and false: Final_Sigma, U+0130, Deseret (A5-safe)."""
    # the words and their case variants, each wholly in the lowercase-safe alphabet
    variants = {w: [v for v in (w, w.lower(), w.upper(), w.title()) if lowercase_safe(v)] for w in CASED_WORDS}
    words = [w for w in CASED_WORDS if w in variants[w]]

    @composite
    def build(draw):
        hypotheses, references = [], []
        for _ in range(draw(st.integers(1, 3))):
            reference = draw(st.lists(st.sampled_from(words), min_size=1, max_size=5))
            hypothesis = [draw(st.sampled_from(variants[w])) for w in reference]
            hypotheses.append(" ".join(hypothesis))
            references.append(" ".join(reference))
        payload = {
            "hypotheses": hypotheses,
            "references": references,
            "lowercase": draw(st.sampled_from((True, True, False))),
        }
        beta = draw(BETAS)
        if beta is not None:
            payload["beta"] = beta
        return case(payload, EXPECT_OUTPUT, f"lowercase {payload['lowercase']}: {hypotheses!r} vs {references!r}")

    return build()


def missing_order_family() -> st.SearchStrategy:
    """Open point A4 on purpose: a segment whose reference lacks an order its hypothesis has,
    beside a segment that has it on both sides (readings computed by the comparison)."""

    @composite
    def build(draw):
        short_reference = draw(st.sampled_from(("a", "ab", "cat", "abcde", "the", "x.", "")))
        lacking = (
            draw(st.sampled_from(("the cat sat", "a b", "cat", "abcdefg", "the cat sat on the mat"))),
            short_reference,
        )
        full_text = draw(st.sampled_from(("the cat sat on the mat", "the dog is on the mat")))
        both = (full_text, draw(st.sampled_from((full_text, "the cat is on the mat", "a cat sat on a mat"))))
        rows = [lacking, both] if draw(st.booleans()) else [both, lacking]
        if draw(st.booleans()):
            rows.append(draw(st.sampled_from((both, lacking, ("", "the cat")))))
        payload = with_options(draw, [r[0] for r in rows], [r[1] for r in rows])
        return case(
            payload,
            EXPECT_OUTPUT,
            f"segment with reference {short_reference!r} lacks orders its hypothesis {lacking[0]!r} has (A4 readings)",
        )

    return build()


def short_and_empty_family() -> st.SearchStrategy:
    """Empty texts, texts shorter than 6 code points, single words (no word bigram), identical texts."""
    short_text = st.sampled_from(
        ("", "a", "ab", "abc de", "the", "cat.", "!", "\U0001f600", "x y", "abcdef", "abcdefg")
    )

    @composite
    def build(draw):
        count = draw(st.integers(1, 4))
        hypotheses = [draw(short_text) for _ in range(count)]
        references = [draw(st.one_of(short_text, st.just(h))) for h in hypotheses]
        payload = with_options(draw, hypotheses, references)
        return case(payload, EXPECT_OUTPUT, f"short and empty texts: {hypotheses!r} vs {references!r}")

    return build()


@composite
def every_beta(draw):
    beta = draw(st.integers(1, 16))
    hypotheses = ["the cat sat on the mat", draw(st.sampled_from(("a dog", "", "the mat")))]
    references = ["the cat is on the mat", draw(st.sampled_from(("a dog barked", "the", "the mat")))]
    payload = with_options(draw, hypotheses, references, beta=beta)
    return case(payload, EXPECT_OUTPUT, f"beta {beta}")


def integers_as_floats(extra: dict | None = None) -> st.SearchStrategy:
    """beta (and the given options) written with a fraction, for contracts that state "4.0 is the integer 4"."""

    @composite
    def build(draw):
        built = draw(derived_texts())
        payload = {**built.input, "beta": float(draw(st.integers(1, 16))), **(extra or {})}
        return case(payload, EXPECT_OUTPUT, f"integers written as floats; {built.description}")

    return build()


def surrogate_bytes(tool_id: str, version: str) -> st.SearchStrategy:
    """For contracts that state "a lone surrogate counting 3 bytes": texts at the byte limit and one
    past it counting the surrogate as 3 bytes (at: invalid_input for the surrogate; past: limit_exceeded)."""
    limit = limits(tool_id, version)["max_text_bytes"]

    @composite
    def build(draw):
        past = draw(st.booleans())
        surrogate = draw(st.sampled_from(LONE_SURROGATES[:4]))
        text = "a" * (limit - 3 + (1 if past else 0)) + surrogate
        payload = (
            {"hypotheses": [text], "references": [""]}
            if draw(st.booleans())
            else {"hypotheses": [""], "references": [text]}
        )
        return case(
            payload,
            LIMIT_EXCEEDED if past else INVALID_INPUT,
            f"{limit - 3 + (1 if past else 0)} ASCII bytes and a lone surrogate counting 3 bytes",
        )

    return build()


# --- boundary -------------------------------------------------------------------


def text_of_bytes(size: int, width: int) -> str:
    """A text of exactly ``size`` UTF-8 bytes with words and spaces, ending on a ``width``-byte character."""
    chunk = "the " + CHARACTER_OF_WIDTH[width] * 3 + " "
    chunk_bytes = len(chunk.encode("utf-8"))
    body = chunk * max(0, (size - width) // chunk_bytes)
    pad = size - width - len(body.encode("utf-8"))
    return body + "a" * pad + CHARACTER_OF_WIDTH[width]


def boundary_families(tool_id: str, version: str, segments_expect: Expectation = ANY_ERROR) -> list[Family]:
    """``segments_expect``: the code of 257 segments (a contract that states it, or "any": open point A6)."""
    limit = limits(tool_id, version)

    @composite
    def max_segments(draw):
        past = draw(st.booleans())
        count = limit["max_segments"] + (1 if past else 0)
        hypothesis = draw(st.sampled_from(("the cat", "", "a b c")))
        payload = {"hypotheses": [hypothesis] * count, "references": ["the cat sat"] * count}
        expect = segments_expect if past else EXPECT_OUTPUT  # maxItems mirrors max_segments (A6)
        return case(payload, expect, f"{count} segments (max_segments {limit['max_segments']})")

    @composite
    def text_bytes(draw):
        past = draw(st.booleans())
        total = limit["max_text_bytes"] + (1 if past else 0)
        width = draw(st.sampled_from((1, 2, 3, 4)))
        segments = draw(st.sampled_from((1, 2, 5)))
        layout = draw(st.sampled_from(("balanced", "references-only", "hypotheses-only")))
        # split the bytes over the 2 * segments texts; the last text ends on a wide character
        # that straddles the limit when the total is one past it
        shares = {
            "balanced": [1] * (2 * segments),
            "references-only": [0] * segments + [1] * segments,
            "hypotheses-only": [1] * segments + [0] * segments,
        }[layout]
        filled = [i for i, share in enumerate(shares) if share]
        sizes = [0] * (2 * segments)
        for i in filled:
            sizes[i] = total // len(filled)
        sizes[filled[-1]] += total - sum(sizes)
        texts = [text_of_bytes(size, width) if size else "" for size in sizes]
        payload = {"hypotheses": texts[:segments], "references": texts[segments:]}
        beta = draw(BETAS)
        if beta is not None:
            payload["beta"] = beta
        expect = LIMIT_EXCEEDED if past else EXPECT_OUTPUT
        return case(
            payload,
            expect,
            f"texts total {total} UTF-8 bytes ({width}-byte characters, {layout}, {segments} segments; "
            f"max_text_bytes {limit['max_text_bytes']})",
        )

    @composite
    def beta_extremes(draw):
        beta = draw(st.sampled_from((1, 16)))
        built = draw(derived_texts())
        payload = {**built.input, "beta": beta}
        return case(payload, EXPECT_OUTPUT, f"beta {beta}; {built.description}")

    return aiming.with_aims(
        [
            Family("boundary/max-segments", "boundary", max_segments(), "256 segments (accepted) and 257"),
            Family(
                "boundary/text-bytes",
                "boundary",
                text_bytes(),
                "65,536 text bytes (accepted) and 65,537 (rejected), multi-byte characters straddling the limit",
            ),
            Family("boundary/beta", "boundary", beta_extremes(), "beta 1 and 16"),
        ],
        {
            "boundary/max-segments": LIMIT_SIDES,
            "boundary/text-bytes": {
                **LIMIT_SIDES,
                "bytes in the hypotheses only": lambda g: not "".join(g.input["references"]),
                "bytes in the references only": lambda g: not "".join(g.input["hypotheses"]),
                "bytes on both sides": lambda g: bool(
                    "".join(g.input["hypotheses"]) and "".join(g.input["references"])
                ),
                "a multi-byte character at the end": lambda g: ord(_texts(g)[-1][-1:] or "a") > 0x7F,
            },
            "boundary/beta": {"beta 1": option("beta", 1), "beta 16": option("beta", 16)},
        },
    )


LIMIT_SIDES = aiming.LIMIT_SIDES


def _texts(generated) -> list[str]:
    return [text for text in [*generated.input["hypotheses"], *generated.input["references"]] if text]


# --- invalid: exactly one rule broken --------------------------------------------

NON_OBJECTS: tuple[object, ...] = ([], [{"hypotheses": ["a"], "references": ["a"]}], "the cat", 1, 0.5, None, False)

LONE_SURROGATES = ("\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800")


@composite
def ordinary_texts(draw) -> dict:
    count = draw(st.integers(1, 3))
    hypotheses = [" ".join(draw(st.lists(st.sampled_from(WORDS), max_size=5))) for _ in range(count)]
    references = [" ".join(draw(st.lists(st.sampled_from(WORDS), max_size=5))) for _ in range(count)]
    return {"hypotheses": hypotheses, "references": references}


UNKNOWN_KEYS = ("char_order", "word_order", "metric", "Beta", "lowercase ", "tokenize", "")


def invalid_families(
    tool_id: str, version: str, unknown_keys: tuple[str, ...] = UNKNOWN_KEYS, segments_expect: Expectation = ANY_ERROR
) -> list[Family]:
    """``unknown_keys``: keys the contract's schema does not name; ``segments_expect`` as for the boundaries."""
    limit = limits(tool_id, version)

    @composite
    def schema(draw):
        payload = draw(ordinary_texts())
        rule = draw(
            st.sampled_from(("type-list", "type-item", "empty", "beta", "lowercase", "unknown-key", "missing-key"))
        )
        aimed(SCHEMA_RULES[rule])
        side = draw(st.sampled_from(("hypotheses", "references")))
        if rule == "type-list":
            payload[side] = draw(st.sampled_from((None, "the cat", {"0": "the cat"}, 3, True)))
            what = f"{side} is {payload[side]!r}"
        elif rule == "type-item":
            i = draw(st.integers(0, len(payload[side]) - 1))
            payload[side][i] = draw(st.sampled_from((None, 0, 1.5, True, ["the", "cat"], {"text": "the cat"})))
            what = f"{side}[{i}] is {payload[side][i]!r}"
        elif rule == "empty":
            payload["hypotheses"], payload["references"] = [], []
            what = "hypotheses and references are both empty (minItems 1)"
        elif rule == "beta":
            payload["beta"] = draw(st.sampled_from((0, 17, -1, 100, 2**63, 2.5, "2", True, None, [2])))
            what = f"beta is {payload['beta']!r}"
        elif rule == "lowercase":
            payload["lowercase"] = draw(st.sampled_from(("true", "false", 1, 0, None, [True])))
            what = f"lowercase is {payload['lowercase']!r}"
        elif rule == "unknown-key":
            key = draw(st.sampled_from(unknown_keys))
            payload[key] = draw(st.sampled_from((6, 2, "chrF++", True)))
            what = f"unknown key {key!r}"
        else:
            del payload[side]
            what = f"required key {side!r} is missing"
        return case(payload, INVALID_INPUT, f"breaks one schema rule: {what}")

    @composite
    def segment_counts(draw):
        payload = draw(ordinary_texts())
        side = draw(st.sampled_from(("hypotheses", "references")))
        payload[side].append(draw(st.sampled_from(("", "the cat"))))
        return case(
            payload,
            INVALID_INPUT,
            f"{len(payload['hypotheses'])} hypotheses but {len(payload['references'])} references",
        )

    @composite
    def lone_surrogates(draw):
        payload = draw(ordinary_texts())
        side = draw(st.sampled_from(("hypotheses", "references")))
        i = draw(st.integers(0, len(payload[side]) - 1))
        text = payload[side][i]
        at = draw(st.integers(0, len(text)))
        surrogate = draw(st.sampled_from(LONE_SURROGATES))
        payload[side][i] = text[:at] + surrogate + text[at:]
        # everything earlier in the stated validation order holds (small texts, equal counts)
        return case(
            payload,
            INVALID_INPUT,
            f"{side}[{i}] holds the lone surrogate(s) {surrogate.encode('unicode_escape').decode()}",
        )

    @composite
    def over_limits(draw):
        if draw(st.booleans()):
            count = draw(st.integers(limit["max_segments"] + 1, limit["max_segments"] + 300))
            payload = {"hypotheses": ["a"] * count, "references": ["a"] * count}
            return case(payload, segments_expect, f"{count} segments: maxItems and max_segments (A6)")
        total = limit["max_text_bytes"] + draw(st.integers(2, 30000))
        payload = {
            "hypotheses": [text_of_bytes(total - 10, draw(st.sampled_from((1, 2, 3, 4))))],
            "references": ["the cat " + "\u00e9"],
        }
        return case(payload, LIMIT_EXCEEDED, f"texts total {total} UTF-8 bytes (max_text_bytes)")

    return aiming.with_aims(
        [
            Family(
                "invalid/not-an-object",
                "invalid",
                sampled_by_index(NON_OBJECTS).map(
                    lambda v: case(v, INVALID_INPUT, f"top level is {v!r}, not an object")
                ),
                "the input is an array, string, number, null or boolean",
            ),
            Family(
                "invalid/schema",
                "invalid",
                schema(),
                "one schema rule broken: a wrong type at each level, null, minItems, beta or lowercase out of "
                "range or of the wrong type, an unknown or missing key",
                aims=tuple(SCHEMA_RULES.values()),
            ),
            Family(
                "invalid/segment-counts", "invalid", segment_counts(), "unequal numbers of hypotheses and references"
            ),
            Family(
                "invalid/lone-surrogates",
                "invalid",
                lone_surrogates(),
                "a lone surrogate in one text, nothing earlier in the validation order broken",
            ),
            Family(
                "invalid/limits",
                "invalid",
                over_limits(),
                "text bytes clearly over max_text_bytes; segments over max_segments ('any', A6)",
            ),
        ],
        {
            "invalid/not-an-object": aiming.NOT_AN_OBJECT,
            "invalid/segment-counts": {
                "more hypotheses": lambda g: len(g.input["hypotheses"]) > len(g.input["references"]),
                "more references": lambda g: len(g.input["hypotheses"]) < len(g.input["references"]),
            },
            "invalid/lone-surrogates": LONE_SURROGATE_FEATURES,
            "invalid/limits": {
                "over max_segments": lambda g: len(g.input["hypotheses"]) > limit["max_segments"],
                "over max_text_bytes": lambda g: len(g.input["hypotheses"]) == 1,
            },
        },
    )


SCHEMA_RULES = {  # each rule invalid/schema breaks, and the aimed feature it gives
    "type-list": "a list of the wrong type",
    "type-item": "a text of the wrong type",
    "empty": "no segments (minItems 1)",
    "beta": "beta out of range or of the wrong type",
    "lowercase": "lowercase not a boolean",
    "unknown-key": "an unknown key (also named like an object property)",
    "missing-key": "a missing key",
}


LONE_SURROGATE_FEATURES: aiming.Features = {
    "in a hypothesis": lambda g: aiming.surrogate_in(g.input["hypotheses"]),
    "in a reference": lambda g: aiming.surrogate_in(g.input["references"]),
    "a low surrogate before a high one": any_text(lambda t: "\udc00\ud800" in t),
}
SURROGATE_BYTES_FEATURES: aiming.Features = {
    "at the byte limit counting the surrogate 3 bytes (invalid_input)": lambda g: (
        g.expect.error_code == "invalid_input"
    ),
    "one byte past it (limit_exceeded)": lambda g: g.expect.error_code == "limit_exceeded",
    "in a hypothesis": lambda g: aiming.surrogate_in(g.input["hypotheses"]),
    "in a reference": lambda g: aiming.surrogate_in(g.input["references"]),
}
INTEGERS_AS_FLOATS_FEATURES: aiming.Features = {"beta written as a float": integral_float("beta")}


def valid_families(tool_id: str, version: str) -> list[Family]:
    whitespace = contract_whitespace(tool_id, version)
    return aiming.with_aims(
        [
            Family(
                "valid/derived-texts",
                "valid",
                derived_texts(),
                "hypotheses made from references: reordered, dropped, repeated, recased, punctuated words",
            ),
            Family(
                "valid/whitespace",
                "valid",
                whitespace_family(whitespace),
                "every whitespace code point of the contract, mixed runs, and near-misses U+200B U+FEFF U+180E U+00AD U+2060",
            ),
            Family(
                "valid/whitespace-neighbours",
                "valid",
                whitespace_neighbours_family(whitespace),
                "each code point next to the contract's whitespace list (U+000E, U+001B, U+1FFF, ...) on one side of a pair",
            ),
            Family(
                "valid/punctuation",
                "valid",
                punctuation_family(),
                "ASCII marks at word ends, starts, both, alone, doubled; U+3002 and U+00BF never split",
            ),
            Family(
                "valid/unicode",
                "valid",
                unicode_family(),
                "precomposed vs combining marks, astral characters, one-code-point words, no normalization",
            ),
            Family(
                "valid/lowercase",
                "valid",
                lowercase_family(),
                "Greek sigma in final and non-final positions, U+0130, Deseret, with lowercase true and false",
            ),
            Family(
                "valid/missing-orders",
                "valid",
                missing_order_family(),
                "a segment whose reference lacks an order its hypothesis has, beside one that has it (A4)",
            ),
            Family(
                "valid/short-and-empty",
                "valid",
                short_and_empty_family(),
                "empty texts, fewer than 6 code points, one word, identical texts",
            ),
            Family("valid/every-beta", "valid", every_beta(), "each beta 1..16"),
        ],
        valid_features(whitespace),
    )


def _pairs(generated) -> list[tuple[str, str]]:
    return list(zip(generated.input["hypotheses"], generated.input["references"]))


def in_a_pair(test) -> aiming.Predicate:
    return lambda generated: any(test(hypothesis, reference) for hypothesis, reference in _pairs(generated))


def _words(generated) -> list[str]:
    return [word for text in aiming.texts_of(generated.input) for word in text.split()]


def any_word(test) -> aiming.Predicate:
    return lambda generated: any(test(word) for word in _words(generated))


def _punctuated(word: str, at: str) -> bool:
    marks = ASCII_PUNCTUATION
    if len(word) < 2:
        return False
    end, start = word[-1] in marks, word[0] in marks
    return {
        "end": end and not start,
        "start": start and not end,
        "both": end and start and word.strip(marks) != "",
        "doubled": len(word) > 2 and (word[-1] in marks and word[-2] in marks or word[0] in marks and word[1] in marks),
    }[at]


def _final_sigma(word: str) -> bool:
    """A capital sigma after a letter with no letter after it (what Final_Sigma lowercases to ς)."""
    return any(
        ch == "\u03a3" and any(c.isalpha() for c in word[:i]) and not any(c.isalpha() for c in word[i + 1 :])
        for i, ch in enumerate(word)
    )


def _code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def valid_features(whitespace: tuple[str, ...]) -> dict[str, aiming.Features]:
    lowercase_flags = {"lowercase true": option("lowercase", True), "lowercase false": option("lowercase", False)}
    return {
        "valid/derived-texts": {
            "a hypothesis equal to its reference": in_a_pair(lambda h, r: bool(h) and h == r),
            "the reference's words reordered": in_a_pair(
                lambda h, r: sorted(h.split()) == sorted(r.split()) and h != r
            ),
            "a word in another case": in_a_pair(
                lambda h, r: any(w not in r.split() and w.lower() in r.lower().split() for w in h.split())
            ),
            "an ASCII punctuation mark added": in_a_pair(lambda h, r: any(ch in ASCII_PUNCTUATION for ch in h)),
            "a word with its letters reversed": in_a_pair(
                lambda h, r: any(w not in r.split() and w[::-1] in r.split() for w in h.split())
            ),
            "an empty hypothesis": in_a_pair(lambda h, r: not h),
        },
        "valid/whitespace-neighbours": {
            "every neighbour in one text": any_text(lambda t: all(ch in t for ch in whitespace_neighbours(whitespace))),
            "in a hypothesis": lambda g: any(
                ch in h for h in g.input["hypotheses"] for ch in whitespace_neighbours(whitespace)
            ),
            "in a reference": lambda g: any(
                ch in r for r in g.input["references"] for ch in whitespace_neighbours(whitespace)
            ),
            **{
                f"neighbour {_code_point(ch)}": (lambda ch: any_text(lambda t: ch in t))(ch)
                for ch in whitespace_neighbours(whitespace)
            },
        },
        "valid/whitespace": {
            "a run of two different whitespace code points": any_text(
                lambda t: any(a in whitespace and b in whitespace and a != b for a, b in zip(t, t[1:]))
            ),
            "a whitespace-only reference": lambda g: any(
                r and not r.strip("".join(whitespace)) for r in g.input["references"]
            ),
            "leading or trailing whitespace": any_text(
                lambda t: bool(t) and (t[0] in whitespace or t[-1] in whitespace)
            ),
            **{f"whitespace {_code_point(ch)}": (lambda ch: any_text(lambda t: ch in t))(ch) for ch in whitespace},
            **{
                f"near-miss {_code_point(ch)}": (lambda ch: any_text(lambda t: ch in t))(ch)
                for ch in WHITESPACE_NEAR_MISSES
            },
        },
        "valid/punctuation": {
            "a mark at a word's end": any_word(lambda w: _punctuated(w, "end")),
            "a mark at a word's start": any_word(lambda w: _punctuated(w, "start")),
            "marks at both ends of a word": any_word(lambda w: _punctuated(w, "both")),
            "two marks together": any_word(lambda w: _punctuated(w, "doubled")),
            "a mark alone": any_word(lambda w: len(w) == 1 and w in ASCII_PUNCTUATION),
            "non-ASCII punctuation (never split)": any_text(lambda t: any(ch in t for ch in NON_ASCII_PUNCTUATION)),
            "a mark detached in the hypothesis": in_a_pair(
                lambda h, r: (
                    h != r
                    and h.split()
                    == [
                        part
                        for w in r.split()
                        for part in ([w[:-1], w[-1]] if len(w) > 1 and w[-1] in ASCII_PUNCTUATION else [w])
                    ]
                )
            ),
        },
        "valid/unicode": {
            "a combining mark": any_text(lambda t: any(unicodedata.combining(ch) for ch in t)),
            "a precomposed letter": any_text(lambda t: any(ch in t for ch in "\u00e9\u00c5")),
            "an astral character": any_text(lambda t: any(ord(ch) > 0xFFFF for ch in t)),
            "a script without spaces (Han, Hebrew)": any_text(
                lambda t: any("\u05d0" <= ch <= "\u05ea" or "\u4e00" <= ch <= "\u9fff" for ch in t)
            ),
            "compatibility characters (ligature, Angstrom sign, fullwidth)": any_text(
                lambda t: any(ch in t for ch in "\ufb01\u212b\uff21")
            ),
        },
        "valid/lowercase": {
            **lowercase_flags,
            "a final capital sigma": any_word(_final_sigma),
            "a capital sigma not final": any_word(
                lambda w: any(ch == "\u03a3" and any(c.isalpha() for c in w[i + 1 :]) for i, ch in enumerate(w))
            ),
            "dotted capital I (U+0130)": any_text(lambda t: "\u0130" in t),
            "an astral capital (Deseret)": any_text(lambda t: "\U00010400" in t or "\U00010401" in t),
            "case-only differences": in_a_pair(lambda h, r: h != r and h.lower() == r.lower()),
        },
        "valid/missing-orders": {
            "an empty reference beside a non-empty hypothesis": in_a_pair(lambda h, r: bool(h) and not r),
            "a reference of fewer than 6 characters": in_a_pair(
                lambda h, r: 0 < len(r.replace(" ", "")) < 6 < len(h.replace(" ", ""))
            ),
            "three segments": lambda g: len(g.input["hypotheses"]) == 3,
        },
        "valid/short-and-empty": {
            "an empty hypothesis": in_a_pair(lambda h, r: not h),
            "an empty reference": in_a_pair(lambda h, r: not r),
            "a text of 1 to 5 characters": any_text(lambda t: 0 < len(t.replace(" ", "")) < 6),
            "identical texts": in_a_pair(lambda h, r: bool(h) and h == r),
            "a single word (no word bigram)": any_text(lambda t: len(t.split()) == 1),
        },
        "valid/every-beta": {
            "beta 1": option("beta", 1),
            "beta 16": option("beta", 16),
            "beta 2 to 15": lambda g: g.input.get("beta") in range(2, 16),
        },
    }
