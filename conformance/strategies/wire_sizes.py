"""The largest request bodies a valid input can produce, per tool.

A server's request-size limit is often a framework default (Express's json parser: "100kb", 102,400
bytes; nginx's client_max_body_size: 1 MiB) chosen without reading the contract. The contracts bound the input in UTF-8
bytes of its text, and JSON writes some characters in more bytes than that: a C0 control character
without a short escape, U+0001, is 1 UTF-8 byte and the 6 bytes ``\\u0001`` on the wire; a quote or
a backslash is 2. A valid input made of such characters has a body several times its text's size,
which a limit sized for the text refuses. ``valid/largest-body`` sends, for every tool, valid inputs
whose compact body reaches at least 90 % of the largest any valid input can produce.

``largest_body_bound(tool_id, version)``: the largest compact body (``encode_request``: separators
"," and ":" without spaces, non-ASCII raw UTF-8, each integer as its digits) of any input valid under
every reading of the contract, computed from its limits and input_schema:

- Characters. encode_request writes non-ASCII raw (1 byte per UTF-8 byte) and ASCII as itself (1
  byte), as a short escape (``\\"`` ``\\\\`` ``\\b`` ``\\f`` ``\\n`` ``\\r`` ``\\t``: 2 bytes) or, for the
  other C0 controls U+0000-U+001F, as ``\\u00XX`` (6 bytes). The costliest escape is 6 bytes per
  UTF-8 byte (``ESCAPE_BYTES_PER_UTF8_BYTE``); a lone surrogate (6 bytes for 3) is invalid under
  some reading of every contract (A3, chrF's stated rule), so no valid input has one.
- Numbers. An integer is written as its digits, the longest of an integer field being that of its
  minimum or maximum. (Where the contract says "4.0 is the integer 4", 4.0 is valid too and
  encode_request writes a float as "4.0", two bytes more: that is another spelling of the same value,
  as the wire forms of conformance/wire.py are, and is not counted; it would add 2 bytes per
  number, 18,002 for bleu-brevity-penalty's 9,001.)
- Options at their longest spelling: an enum's longest value ("chen-cherry-1", "segments"), false
  (5 bytes) for a boolean, an integer's longest digits ("15", "16", "10", "8").
- Lists at the most items the limits allow, each holding nothing (``[]``, ``""``), then the text: a
  member ``"name":`` is len(name) + 3 bytes, an array of n items 2 + (items) + (n - 1) commas, an
  object of m members 2 + (members) + (m - 1) commas.
- A1 (do the total token limits count reference tokens?) is read strictly: max_total_tokens and
  max_total_token_bytes count the hypothesis and the reference tokens together (the stricter
  reading, so the input is valid under both). A2 (the output limit's serialisation) never enters:
  bleu-ngrams-count's longest detail is "segments", whose output for 1,000 segments at max_order 8
  is under 0.6 MB even indented by 4 in the {"result": ...} envelope, under max_output_bytes in
  every serialisation ("ngrams" is 2 bytes shorter and never needed).

BLEU tokens (max_total_tokens T = 50,000, max_token_bytes 128, max_total_token_bytes B = 1,048,576):
T tokens of B bytes in all, every byte a 6-byte control: 6B = 6,291,456, plus 2 quotes per token
(100,000), plus a comma between tokens of one list, at most T - 1 = 49,999 (all in one list):
6,441,455. T tokens of 1..128 bytes can hold B bytes (50,000 <= B <= 128 T), so this is reached:
48,576 tokens of 21 controls and 1,424 of 20. Fewer tokens only lose quotes and commas.

- bleu-sentence-components: {"hypothesis":[],"references":[8 x []],"max_order":8} is
  2 + (13 + 2) + (13 + 2 + 8 x 2 + 7) + 13 + 2 commas = 70; 70 + 6,441,455 = **6,441,525**.
- bleu-sentence-compute: that, with "smoothing":"chen-cherry-1" (12 + 15 = 27),
  "effective_order":false (18 + 5 = 23) and "decimals":15 (11 + 2 = 13) and 3 commas more:
  70 + 27 + 23 + 13 + 3 = 136; **6,441,591**.
- bleu-corpus-compute (max_segments 1,000, max_references_per_segment 8; equal segment counts, A10):
  "hypotheses": 13 + (2 + 1,000 x 2 + 999) = 3,014; "references": 13 + (2 + 1,000 x (2 + 8 x 2 + 7)
  + 999) = 26,014; "max_order":8 13; "decimals":15 13; braces 2 and 3 commas: 29,059;
  **6,470,514**.
- bleu-ngrams-count: "detail":"segments" (9 + 10 = 19) in place of "decimals":15 (13): 29,065;
  **6,470,520**.

chrF texts (max_segments 256, max_text_bytes 65,536 UTF-8 bytes of all texts together, a text may
be empty): 6 x 65,536 = 393,216, reached by any split of 65,536 controls over the texts.

- chrf-compute, chrf-plus-plus-compute: "hypotheses" and "references" each 13 + (2 + 256 x 2 + 255)
  = 782; "beta":16 (7 + 2 = 9); "lowercase":false (12 + 5 = 17); braces 2, 3 commas: 1,595;
  **394,811**.
- chrf-components: also "char_order":10 (13 + 2 = 15), "word_order":4 (13 + 1 = 14) and
  "whitespace":false (13 + 5 = 18), 3 commas more: 1,595 + 50 = 1,645; **394,861**.

- bleu-brevity-penalty (no text; 1,000 segments, 8 references, every length <= 1,048,576: 7 digits):
  "candidate_lengths" 20 + (2 + 1,000 x 7 + 999) = 8,021; "reference_lengths" 20 + (2 + 1,000 x
  (2 + 8 x 7 + 7) + 999) = 66,021; "decimals":15 13; braces 2, 2 commas: **74,059**.

Each bound is exact, not only an upper bound: every count above is reached at once by one valid
input (tests/test_wire_sizes.py builds it and sends it to the oracle). Only the numbers' spelling
(above) would go past it.

The family draws a few parameters (the control characters, the characters mixed in, a layout of
token or text sizes, a seed, the options) and builds the input from them deterministically: drawing
a few megabytes character by character would take Hypothesis minutes. Every input holds exactly
the limits' totals (under A1's strict reading), spread over every segment and reference the limits
allow, at most 2 % of its characters mixed in (quotes, backslashes, short escapes, wide characters,
...), so its body stays above 90 % of the bound whatever is drawn. No input depends on an open
point: chrF's lowercase is never true (A5: the C0 controls are outside the lowercase-safe alphabet),
bleu-ngrams-count's detail never "ngrams" (A2). Each example is 0.07 to 6.5 MB, so the family runs
a small share of the profile's examples. The oracle answers each drawn case in under 0.4 s (0.25 s
at the bound for the BLEU corpus tools; the costliest input tried, 50,000 distinct tokens at
max_order 8, takes 0.8 s).
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from conformance.jsonio import encode_request
from conformance.strategies.base import (
    EXPECT_OUTPUT,
    Family,
    GeneratedCase,
    aimed,
    case,
    composite,
    input_schema,
    limits,
    sampled_by_index,
)

NAME = "valid/largest-body"
SHARE_OF_BOUND = 0.9
REACHED = "body>=90%-of-bound"
# Each example is up to 6.5 MB, and one reaches the bound as well as many: 1 example at the quick and
# default profiles, 12 at thorough.
EXAMPLES_SHARE, MIN_EXAMPLES = 0.02, 1


def body_bytes(payload: Any) -> int:
    """The size of the compact request body of ``payload``, as the targets send it."""
    return len(encode_request(payload))


def escaped_bytes(ch: str) -> int:
    """The bytes of one character inside a JSON string, as encode_request writes it."""
    return body_bytes(ch) - 2


def utf8_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


# Every other character is written raw (non-ASCII) or as itself: ASCII holds the costliest escape.
ESCAPE_BYTES_PER_UTF8_BYTE = max(escaped_bytes(chr(cp)) // utf8_bytes(chr(cp)) for cp in range(0x80))
# The C0 controls JSON writes as \u00XX: every one but \b \t \n \f \r.
SIX_BYTE_CONTROLS = tuple(chr(cp) for cp in range(0x20) if escaped_bytes(chr(cp)) == ESCAPE_BYTES_PER_UTF8_BYTE)
# Of those, the ones the chrF contracts list as whitespace ("U+0009-U+000D, U+001C-U+001F"): word separators.
WHITESPACE_CONTROLS = ("\x0b", "\x1c", "\x1d", "\x1e", "\x1f")
# The others, but U+0000: a NUL is a character class of its own (strategies/code_points.py), not a size.
WORD_CONTROLS = tuple(ch for ch in SIX_BYTE_CONTROLS if ch not in WHITESPACE_CONTROLS and ch != "\x00")

# Characters mixed in, a group at a time: each costs at most 2 bytes per UTF-8 byte, so the body shrinks.
MIXINS: tuple[tuple[str, str], ...] = (
    ("quotes and backslashes", '"\\'),
    ("short escapes", "\b\f\n\r\t"),
    ("ASCII letters and marks", "aZ/<>&'#"),
    ("wide characters", "\u00e9\u20ac\U0001f600"),
    ("DEL and C1 controls", "\x7f\x85\x9f"),
    ("line and paragraph separators", "\u2028\u2029"),
)
MAX_MIXIN_PER_MILLE = 20  # of the characters: even all 4-byte ones leave the content at 95 % of 6 bytes a byte
VOCABULARY = 4  # distinct tokens (BLEU) of each size, or words (chrF) 8 times that


# --- the bound ---------------------------------------------------------------------------------


def _member(name: str, value: int) -> int:
    """ "name":value"""
    return len(json.dumps(name)) + 1 + value


def _array(count: int, item: int) -> int:
    """[item,item,...] of ``count`` items of ``item`` bytes each."""
    return 2 + count * item + max(count - 1, 0)


def _object(members: Iterable[int]) -> int:
    sizes = list(members)
    return 2 + sum(sizes) + max(len(sizes) - 1, 0)


def longest_value(schema: dict) -> int:
    """The bytes of the longest valid value of an option (an enum, a boolean or an integer)."""
    if "enum" in schema:
        return max(body_bytes(value) for value in schema["enum"])
    if schema.get("type") == "boolean":
        return len("false")
    if schema.get("type") == "integer":
        return max(len(str(schema["minimum"])), len(str(schema["maximum"])))
    raise ValueError(f"no longest spelling for the schema {schema}")


CONTENT = {
    "bleu-lengths": ("candidate_lengths", "reference_lengths"),
    "bleu-corpus": ("hypotheses", "references"),
    "bleu-segment": ("hypothesis", "references"),
    "chrf": ("hypotheses", "references"),
}


def shape(tool_id: str, version: str) -> str:
    """Which of the contracts' input shapes the tool takes (its content fields: ``CONTENT``)."""
    properties = input_schema(tool_id, version)["properties"]
    if "candidate_lengths" in properties:
        return "bleu-lengths"
    if "hypothesis" in properties:
        return "bleu-segment"
    if "hypotheses" in properties:
        return "bleu-corpus" if properties["hypotheses"]["items"].get("type") == "array" else "chrf"
    raise ValueError(f"{tool_id}@{version}: no known input shape")


def _options_bytes(tool_id: str, version: str) -> list[int]:
    """Every option (every property but the content) as a member at its longest spelling."""
    properties = input_schema(tool_id, version)["properties"]
    content = CONTENT[shape(tool_id, version)]
    return [_member(name, longest_value(schema)) for name, schema in properties.items() if name not in content]


def _segments(tool_id: str, version: str) -> int:
    """The most segments: the limit, and each list's maxItems (equal counts: A10)."""
    properties = input_schema(tool_id, version)["properties"]
    first, second = CONTENT[shape(tool_id, version)]
    return min(limits(tool_id, version)["max_segments"], properties[first]["maxItems"], properties[second]["maxItems"])


def _references(tool_id: str, version: str) -> int:
    """The most references of a segment: the limit and the schema's maxItems."""
    properties = input_schema(tool_id, version)["properties"]
    kind = shape(tool_id, version)
    if kind == "bleu-segment":
        per_segment = properties["references"]
    else:
        per_segment = properties["reference_lengths" if kind == "bleu-lengths" else "references"]["items"]
    return min(limits(tool_id, version)["max_references_per_segment"], per_segment["maxItems"])


def token_totals(tool_id: str, version: str) -> tuple[int, int]:
    """(tokens, UTF-8 bytes) of the largest BLEU input, hypotheses and references together (A1 strict):
    as many tokens as the limit allows (each has at least one byte), holding as many bytes as it allows
    (each at most max_token_bytes)."""
    limit = limits(tool_id, version)
    tokens = min(limit["max_total_tokens"], limit["max_total_token_bytes"])
    return tokens, min(limit["max_total_token_bytes"], tokens * limit["max_token_bytes"])


@functools.cache
def largest_body_bound(tool_id: str, version: str) -> int:
    """The size in bytes of the largest compact JSON body of any input valid under every reading of the
    tool's contract (the module's docstring derives it for every tool, with A1's strict reading)."""
    kind = shape(tool_id, version)
    limit = limits(tool_id, version)
    options = _options_bytes(tool_id, version)
    references = 0 if kind == "chrf" else _references(tool_id, version)
    if kind == "bleu-lengths":
        segments = _segments(tool_id, version)
        item = input_schema(tool_id, version)["properties"]["candidate_lengths"]["items"]
        digits = longest_value({**item, "maximum": min(item["maximum"], limit["max_length"])})
        candidates = _member("candidate_lengths", _array(segments, digits))
        lengths = _member("reference_lengths", _array(segments, _array(references, digits)))
        return _object([candidates, lengths, *options])
    if kind == "chrf":
        segments = _segments(tool_id, version)
        empty_texts = [_member(name, _array(segments, len('""'))) for name in CONTENT[kind]]
        return _object([*empty_texts, *options]) + ESCAPE_BYTES_PER_UTF8_BYTE * limit["max_text_bytes"]
    tokens, token_bytes = token_totals(tool_id, version)
    # every token in one list: its quotes, the commas between them, 6 bytes for each of its bytes
    text = tokens * len('""') + (tokens - 1) + ESCAPE_BYTES_PER_UTF8_BYTE * token_bytes
    empty = _array(0, 0)
    if kind == "bleu-segment":
        lists = [_member("hypothesis", empty), _member("references", _array(references, empty))]
    else:
        segments = _segments(tool_id, version)
        lists = [
            _member("hypotheses", _array(segments, empty)),
            _member("references", _array(segments, _array(references, empty))),
        ]
    return _object([*lists, *options]) + text


# --- what a case is built from -------------------------------------------------------------------


class Palette:
    """The characters of one input: 6-byte controls for words, 6-byte whitespace controls between
    them, and a share of other characters mixed in."""

    def __init__(self, words: tuple[str, ...], separators: tuple[str, ...], mixins: tuple[int, ...], per_mille: int):
        self.words = words
        self.separators = separators
        self.mixin_groups = tuple(MIXINS[i][0] for i in mixins)
        self.mixins = "".join(MIXINS[i][1] for i in mixins)
        self.share = per_mille / 1000 if self.mixins else 0.0

    def text(self, rng: random.Random, size: int, characters: tuple[str, ...] | None = None) -> str:
        """A string of exactly ``size`` UTF-8 bytes: ``characters`` (the word controls), a share mixed in."""
        pool = characters or self.words
        chars: list[str] = []
        left = size
        while left:
            ch = rng.choice(self.mixins) if self.share and rng.random() < self.share else rng.choice(pool)
            if utf8_bytes(ch) <= left:
                chars.append(ch)
                left -= utf8_bytes(ch)
        return "".join(chars)

    def describe(self) -> str:
        def names(characters: Iterable[str]) -> str:
            return " ".join(f"U+{ord(ch):04X}" for ch in characters)

        mixed = f", {self.share:.1%} of the characters from {', '.join(self.mixin_groups)}" if self.share else ""
        return f"controls {names(self.words)}, whitespace controls {names(self.separators)}{mixed}"


@composite
def palettes(draw: Any) -> Palette:
    def some(pool: tuple[str, ...], most: int) -> tuple[str, ...]:
        picked = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=most, unique=True))
        return tuple(pool[i] for i in picked)

    words, separators = some(WORD_CONTROLS, 5), some(WHITESPACE_CONTROLS, 3)
    mixins = tuple(draw(st.lists(st.integers(0, len(MIXINS) - 1), max_size=3, unique=True)))
    return Palette(words, separators, mixins, draw(st.integers(1, MAX_MIXIN_PER_MILLE)))


def _cut(rng: random.Random, items: int, lists: int, layout: str) -> list[int]:
    """How many of ``items`` each of ``lists`` lists holds: as equal as integers allow ("even"), at
    random cut points ("random", some lists empty), or in half the lists only ("half empty")."""
    if layout == "even":
        share, extra = divmod(items, lists)
        return [share + (i < extra) for i in range(lists)]
    holding = lists if layout == "random" else max(1, lists // 2)
    cuts = sorted(rng.choices(range(items + 1), k=holding - 1))
    counts = [b - a for a, b in zip([0, *cuts], [*cuts, items])]
    if holding == lists:
        return counts
    at = sorted(rng.sample(range(lists), holding))
    spread = [0] * lists
    for index, count in zip(at, counts):
        spread[index] = count
    return spread


def _options(tool_id: str, version: str) -> SearchStrategy[dict]:
    """The tool's options, each absent or drawn (a required one always drawn), never one that makes the
    case depend on an open point: chrF's lowercase is false (A5: the C0 controls are outside the
    lowercase-safe alphabet), bleu-ngrams-count's detail is not "ngrams" (A2: its output grows past
    max_output_bytes), chrf-components' char_order at least 1 (so the orders sum to at least 1)."""
    schema = input_schema(tool_id, version)
    content = CONTENT[shape(tool_id, version)]
    drawn: dict[str, SearchStrategy[Any]] = {}
    for name, property_schema in schema["properties"].items():
        if name in content:
            continue
        values: SearchStrategy[Any]
        if "enum" in property_schema:
            values = sampled_by_index(tuple(v for v in property_schema["enum"] if (name, v) != ("detail", "ngrams")))
        elif property_schema.get("type") == "boolean":
            values = st.just(False) if name == "lowercase" else st.booleans()
        else:
            least = max(property_schema["minimum"], 1 if name == "char_order" else property_schema["minimum"])
            values = st.integers(least, property_schema["maximum"])
        drawn[name] = values if name in schema.get("required", ()) else st.one_of(st.none(), values)
    return st.fixed_dictionaries(drawn).map(lambda found: {k: v for k, v in found.items() if v is not None})


# --- the builders: (payload without options, what it is) from the drawn parameters -----------------

Built = tuple[dict, str]
TOKEN_LAYOUTS = ("most tokens", "longest tokens", "mixed sizes")
LIST_LAYOUTS = ("even", "random", "half empty")


def _token_sizes(rng: random.Random, layout: str, tokens: int, total: int, longest: int) -> list[int]:
    """Sizes in UTF-8 bytes of the tokens, summing to ``total``: as many tokens as allowed, as long as
    allowed, or of random sizes."""
    if layout == "most tokens":
        sizes = _cut(rng, total, tokens, "even")
    elif layout == "longest tokens":
        count = math.ceil(total / longest)
        sizes = [longest] * (count - 1) + [total - longest * (count - 1)]
    else:
        sizes, left = [], total
        while left:
            sizes.append(min(left, rng.randint(1, longest)))
            left -= sizes[-1]
        if len(sizes) > tokens:  # ~16,000 of 50,000 expected; never past the limit
            sizes = _cut(rng, total, tokens, "even")
    rng.shuffle(sizes)
    return sizes


def _token_lists(
    rng: random.Random, palette: Palette, sizes: list[int], counts: list[int], lists_per_segment: int
) -> list[list[str]]:
    """The tokens cut into lists of ``counts`` tokens, a segment being ``lists_per_segment`` lists (its
    hypothesis, then its references). A reference token has the hypothesis token of its position half
    the time when their sizes agree, so n-grams of every order match."""
    vocabulary: dict[int, list[str]] = {}
    characters = palette.words + palette.separators  # a BLEU token may hold whitespace
    for size in sorted(set(sizes)):
        vocabulary[size] = [palette.text(rng, size, characters) for _ in range(VOCABULARY)]
    lists: list[list[str]] = []
    at = 0
    for index, count in enumerate(counts):
        hypothesis = lists[index - index % lists_per_segment] if index % lists_per_segment else []
        tokens = []
        for position, size in enumerate(sizes[at : at + count]):
            if position < len(hypothesis) and utf8_bytes(hypothesis[position]) == size and rng.random() < 0.5:
                tokens.append(hypothesis[position])
            else:
                tokens.append(rng.choice(vocabulary[size]))
        lists.append(tokens)
        at += count
    return lists


def _bleu(tool_id: str, version: str, palette: Palette, layout: tuple[str, str], rng: random.Random) -> Built:
    limit = limits(tool_id, version)
    tokens, total = token_totals(tool_id, version)
    sizes = _token_sizes(rng, layout[0], tokens, total, limit["max_token_bytes"])
    one_segment = shape(tool_id, version) == "bleu-segment"
    segments = 1 if one_segment else _segments(tool_id, version)
    per_segment = 1 + _references(tool_id, version)
    lists = _token_lists(rng, palette, sizes, _cut(rng, len(sizes), segments * per_segment, layout[1]), per_segment)
    hypotheses = lists[::per_segment]
    references = [lists[i + 1 : i + per_segment] for i in range(0, len(lists), per_segment)]
    payload = (
        {"hypothesis": hypotheses[0], "references": references[0]}
        if one_segment
        else {"hypotheses": hypotheses, "references": references}
    )
    what = (
        f"{len(sizes)} tokens of {min(sizes)}-{max(sizes)} bytes, {total} bytes in all ({layout[0]}), "
        f"in {segments} segment(s) of a hypothesis and {per_segment - 1} references ({layout[1]})"
    )
    return payload, what


PREFIX_BYTES = 8  # 6 word controls, a separator, a word control: every character order of chrF and chrF++ and 2 words


def _chrf(tool_id: str, version: str, palette: Palette, layout: tuple[str, str], rng: random.Random) -> Built:
    """Texts of words (the word controls, some mixed in) between whitespace controls, each segment's
    reference taking the words of its hypothesis, in order, half the time. A reference of a segment
    whose hypothesis is not empty starts with ``PREFIX_BYTES`` that hold every order the chrF tools
    count (6 characters, 2 words), so no reference lacks an order its hypothesis has (A4)."""
    total = limits(tool_id, version)["max_text_bytes"]
    segments = _segments(tool_id, version)
    budgets = _cut(rng, total, segments, layout[1])
    vocabulary = [palette.text(rng, rng.randint(1, 12)) for _ in range(8 * VOCABULARY)]

    def text(size: int, start: str = "", following: Iterable[str] = ()) -> tuple[str, list[str]]:
        parts: list[str] = [start] if start else []
        words: list[str] = []
        left = size - utf8_bytes(start)
        upcoming = iter(following)
        while left:
            word = (next(upcoming, None) if rng.random() < 0.5 else None) or rng.choice(vocabulary)
            if utf8_bytes(word) > left:
                word = palette.text(rng, left)  # the last word, exactly to the text's size
            words.append(word)
            parts.append(word)
            left -= utf8_bytes(word)
            if left:
                parts.append(rng.choice(palette.separators))
                left -= 1
        return "".join(parts), words

    hypotheses: list[str] = []
    references: list[str] = []
    words: list[str]
    for budget in budgets:
        if budget < 2 * PREFIX_BYTES:
            hypothesis, words = "", []
        else:
            size = budget // 2 if layout[1] == "even" else rng.randint(0, budget - PREFIX_BYTES)
            hypothesis, words = text(size)
        prefix = ""
        if hypothesis:
            pick = palette.words
            prefix = "".join(rng.choices(pick, k=6)) + rng.choice(palette.separators) + rng.choice(pick)
        hypotheses.append(hypothesis)
        references.append(text(budget - utf8_bytes(hypothesis), prefix, words)[0])
    payload = {"hypotheses": hypotheses, "references": references}
    sizes = [utf8_bytes(t) for t in hypotheses + references]
    what = f"{2 * segments} texts of {min(sizes)}-{max(sizes)} bytes, {total} bytes in all ({layout[1]})"
    return payload, what


LENGTH_LAYOUTS = ("shorter candidates", "longer candidates", "ties")


def _lengths(tool_id: str, version: str, palette: Palette | None, layout: tuple[str, str], rng: random.Random) -> Built:
    """Lengths of 7 digits, the references near the candidate (longer, shorter, or equally far on both
    sides), a few short ones (of 1-6 digits, at most 2 % of them)."""
    longest = limits(tool_id, version)["max_length"]
    segments, references = _segments(tool_id, version), _references(tool_id, version)
    lowest, spread = 10 ** (len(str(longest)) - 1), 100
    short = rng.randint(0, MAX_MIXIN_PER_MILLE) / 1000

    def length(value: int) -> int:
        return rng.randint(0, lowest - 1) if rng.random() < short else value

    candidates, reference_lengths = [], []
    for _ in range(segments):
        candidate = rng.randint(lowest + spread, longest - spread)
        if layout[0] == "ties":
            offsets = [d * sign for d in rng.sample(range(1, spread), references // 2) for sign in (1, -1)]
        else:
            sign = 1 if layout[0] == "shorter candidates" else -1
            offsets = [sign * rng.randint(0, spread) for _ in range(references)]
        candidates.append(length(candidate))
        reference_lengths.append([length(candidate + d) for d in (offsets + [0] * references)[:references]])
    payload = {"candidate_lengths": candidates, "reference_lengths": reference_lengths}
    what = f"{segments} segments of {references} reference lengths ({layout[0]}), {short:.1%} of them short"
    return payload, what


BUILDERS: dict[str, tuple[Callable[..., Built], tuple[str, ...], tuple[str, ...]]] = {
    # shape: (builder, its first layouts, its second layouts)
    "bleu-corpus": (_bleu, TOKEN_LAYOUTS, LIST_LAYOUTS),
    "bleu-segment": (_bleu, TOKEN_LAYOUTS, LIST_LAYOUTS),
    "chrf": (_chrf, ("",), LIST_LAYOUTS),
    "bleu-lengths": (_lengths, LENGTH_LAYOUTS, ("",)),
}


def largest_bodies(tool_id: str, version: str) -> SearchStrategy[GeneratedCase]:
    """Valid inputs whose compact body reaches at least 90 % of ``largest_body_bound``."""
    bound = largest_body_bound(tool_id, version)
    kind = shape(tool_id, version)
    build, first_layouts, second_layouts = BUILDERS[kind]
    options = _options(tool_id, version)

    @composite
    def draw_case(draw: Any) -> GeneratedCase:
        palette = None if kind == "bleu-lengths" else draw(palettes())  # lengths hold no text
        layout = (draw(sampled_by_index(first_layouts)), draw(sampled_by_index(second_layouts)))
        seed = draw(st.integers(0, 2**32 - 1))
        chosen = draw(options)
        payload, what = build(tool_id, version, palette, layout, random.Random(seed))
        payload.update(chosen)
        size = body_bytes(payload)
        if size >= SHARE_OF_BOUND * bound:
            aimed(REACHED)
        characters = "" if palette is None else f"; {palette.describe()}"
        return case(
            payload,
            EXPECT_OUTPUT,
            f"compact body {size} bytes of the bound {bound} ({size / bound:.1%}): {what}{characters}; "
            f"options {json.dumps(chosen)}",
        )

    return draw_case()


def families(tool_id: str, version: str) -> list[Family]:
    try:
        shape(tool_id, version)
    except (KeyError, ValueError):
        return []  # a contract of another shape: no bound known
    return [
        Family(
            NAME,
            "valid",
            largest_bodies(tool_id, version),
            "valid inputs whose compact body is at least 90 % of the largest any valid input can produce "
            f"({largest_body_bound(tool_id, version):,} bytes): the limits' totals in 6-byte-escaped controls",
            aims=(REACHED,),
            examples_share=EXAMPLES_SHARE,
            min_examples=MIN_EXAMPLES,
        )
    ]
