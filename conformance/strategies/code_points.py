"""Every class of code point, aimed and counted, for every text field and option of every tool.

One family per tool with texts or tokens, ``valid/code-point-classes``: every example holds every
class below in its hypotheses and in its references, each class twice per segment:

- a shared word (chrF) or token (BLEU), ``before + member + after``, on both sides, so a target
  that drops, splits, truncates or rewrites the member changes n-grams that match;
- an edited pair, one side the shared word and the other a variant: the member removed (a target
  dropping it finds a false match), or the text after or before it changed (a target truncating
  at it finds a false match), on the hypothesis or on the reference side.

The hypothesis and the reference also end differently, so no example scores 100 whatever a target
does to the members. The member's place in its word is drawn (inside, at the start, at the end,
alone), and so is the class the words start with, so classes meet in n-grams of every order.
Options come from the tool's input schema: with lowercase true only the classes with members in
the lowercase-safe alphabet are sent (open point A5; alphabets.lowercase_safe), word orders,
whitespace kept or removed, BLEU's max_order, detail ("ngrams" most often, so the echoed n-gram
rows are compared), smoothing and the rest. The expected output is the oracle's, so nothing here
says what a class does: every echoed string (n-gram rows, word tokens) is compared exactly.

Each class is an aim, and so is each class under each option that transforms text or echoes it
(with lowercase, with whitespace kept, in word n-grams, echoed in n-gram rows). The all-zero draw,
Hypothesis's first example, has every class with whitespace kept, word n-grams and n-gram rows;
two examples in three of the rest are lowercased, so the quick profile reaches every aim.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from conformance.strategies.alphabets import (
    ASCII_PUNCTUATION,
    ASTRAL_CHARACTERS,
    COMBINING_MARKS,
    contract_whitespace,
    lowercase_safe,
)
from conformance.strategies.base import (
    EXPECT_OUTPUT,
    Family,
    GeneratedCase,
    aimed,
    case,
    composite,
    input_schema,
    sampled_by_index,
)

NAME = "valid/code-point-classes"
EXAMPLES_SHARE = 0.2


@dataclass(frozen=True)
class CodePointClass:
    """A class of code point: a member is one alternative of each part, concatenated."""

    label: str
    parts: tuple[tuple[str, ...], ...]

    def parts_for(self, lowercase: bool) -> tuple[tuple[str, ...], ...] | None:
        """The parts a text with this lowercase option may hold (A5); None when no member is left."""
        if not lowercase:
            return self.parts
        safe = tuple(tuple(alternative for alternative in part if lowercase_safe(alternative)) for part in self.parts)
        return safe if all(safe) else None

    def code_points(self) -> set[str]:
        return {ch for part in self.parts for alternative in part for ch in alternative}


# Combining marks beyond U+0300-U+036F: Cyrillic, Hebrew, Arabic, enclosing (Me), extended, half
# marks, and two astral ones (a musical stem, a variation selector of plane 14).
OTHER_MARKS = (
    "\u0483",
    "\u05b0",
    "\u0610",
    "\u20dd",
    "\u20e3",
    "\u1ab0",
    "\u1dc0",
    "\ufe20",
    "\U0001d165",
    "\U000e0100",
)
MARKS = COMBINING_MARKS + OTHER_MARKS
OPTIONAL_MARK = ("", *MARKS)  # a second mark, or none
LETTERS = ("a", "e", "N", "o", "U", "z")
ZWJ_SEQUENCES = (
    "\U0001f468\u200d\U0001f469",  # man ZWJ woman
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag: a variation selector before the ZWJ
    "\U0001f469\U0001f3fd\u200d\U0001f52c",  # a skin-tone modifier before the ZWJ
    "a\u200db",  # a ZWJ between letters
)
REGIONAL_INDICATOR_PAIRS = (
    "\U0001f1eb\U0001f1f7",  # FR
    "\U0001f1ef\U0001f1f5",  # JP
    "\U0001f1fa\U0001f1f8",  # US
    "\U0001f1eb\U0001f1f7\U0001f1ef\U0001f1f5",  # two flags in a row
)
# Deseret has case (astral letters lowercase to astral letters); the others have none.
ASTRAL = (*ASTRAL_CHARACTERS, "\U00010401", "\U00010427", "\U0001044f", "\U0001d11e", "\U0002a6d6", "\U0001fa75")
NONCHARACTERS = (
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U0001ffff",
    "\ufdd0",
    "\ufdef",
    "\U0010fffe",
    "\U0010ffff",
    *(chr(cp) for cp in range(0xFDD1, 0xFDEF)),
    *(chr(plane * 0x10000 + low) for plane in range(2, 16) for low in (0xFFFE, 0xFFFF)),
)
PRIVATE_USE = (
    "\ue000",
    "\uf8ff",
    "\U000f0000",
    "\U0010fffd",
    "\U000ffffd",
    "\U00100000",
    "\ue8a5",
    "\U000f7654",
    "\U00104321",
)

CLASSES = (
    CodePointClass("C0 control (U+0001-U+001F)", (tuple(chr(cp) for cp in range(0x01, 0x20)),)),
    CodePointClass("U+0000", (("\x00",),)),
    CodePointClass("C1 control (U+0080-U+009F)", (tuple(chr(cp) for cp in range(0x80, 0xA0)),)),
    CodePointClass("LF", (("\n",),)),
    CodePointClass("CR", (("\r",),)),
    CodePointClass("CRLF", (("\r\n",),)),
    CodePointClass("NEL (U+0085)", (("\x85",),)),
    CodePointClass("LINE SEPARATOR (U+2028)", (("\u2028",),)),
    CodePointClass("PARAGRAPH SEPARATOR (U+2029)", (("\u2029",),)),
    CodePointClass("combining mark after a letter", (LETTERS, MARKS, OPTIONAL_MARK)),
    CodePointClass("combining mark after punctuation", (tuple(ASCII_PUNCTUATION), MARKS, OPTIONAL_MARK)),
    CodePointClass("ZWJ sequence", (ZWJ_SEQUENCES,)),
    CodePointClass("regional-indicator pair", (REGIONAL_INDICATOR_PAIRS,)),
    CodePointClass("astral character", (ASTRAL,)),
    CodePointClass("noncharacter", (NONCHARACTERS,)),
    CodePointClass("private-use code point", (PRIVATE_USE,)),
)

# The lowercase-safe ASCII around the members; the hypothesis and the reference end differently.
AFFIXES = ("ab", "Cd", "ef", "GH", "k", "xYz")
HYPOTHESIS_END, REFERENCE_END = "tail", "Rest"
# Where the member goes in its word, and how the pair's variant differs from the shared word.
SHAPES = ("inside", "start", "end", "alone")
WITHOUT, OTHER_AFTER, OTHER_BEFORE, SAME = "the member removed", "other text after", "other text before", "the same"
EDITS = (WITHOUT, OTHER_AFTER, OTHER_BEFORE, SAME)

WITH_LOWERCASE, WHITESPACE_KEPT, IN_WORD_NGRAMS, ECHOED = (
    "with lowercase",
    "with whitespace kept",
    "in word n-grams",
    "echoed in n-gram rows",
)


def lowercase_classes() -> tuple[CodePointClass, ...]:
    """The classes a lowercased text may hold (A5): members in the lowercase-safe alphabet."""
    return tuple(c for c in CLASSES if c.parts_for(True) is not None)


# --- the tool's shape, read from its contract ----------------------------------------------------


@dataclass(frozen=True)
class Shape:
    fields: str  # "texts" (chrF), "corpus" (hypotheses: lists of tokens), "sentence" (hypothesis: a token list)
    options: tuple[tuple[str, dict, bool], ...]  # (name, schema, required) of every non-list field
    whitespace: frozenset[str]  # the contract's whitespace list (chrF), for the whitespace aims

    def option(self, name: str) -> bool:
        return any(option == name for option, _, _ in self.options)


@functools.cache
def shape_of(tool_id: str, version: str) -> Shape | None:
    schema = input_schema(tool_id, version)
    properties = schema["properties"]
    required = set(schema.get("required", ()))
    options = tuple((name, prop, name in required) for name, prop in properties.items() if prop.get("type") != "array")
    if properties.get("hypotheses", {}).get("items", {}).get("type") == "string":
        return Shape("texts", options, frozenset(contract_whitespace(tool_id, version)))
    if properties.get("hypotheses", {}).get("items", {}).get("type") == "array":
        return Shape("corpus", options, frozenset())
    if "hypothesis" in properties:
        return Shape("sentence", options, frozenset())
    return None  # lengths only: no text


def aims_of(shape: Shape) -> tuple[str, ...]:
    aims = [c.label for c in CLASSES]
    if shape.option("lowercase"):
        aims += [f"{c.label} {WITH_LOWERCASE}" for c in lowercase_classes()]
    if shape.option("whitespace"):
        aims += [f"{c.label} {WHITESPACE_KEPT}" for c in CLASSES if c.code_points() & shape.whitespace]
    if shape.option("word_order"):
        aims += [f"{c.label} {IN_WORD_NGRAMS}" for c in CLASSES]
    if shape.option("detail"):
        aims += [f"{c.label} {ECHOED}" for c in CLASSES]
    return tuple(aims)


# --- options ------------------------------------------------------------------------------------


def _choice(draw: Any, values: tuple) -> Any:
    return draw(sampled_by_index(values))


def draw_options(draw: Any, shape: Shape) -> dict:
    """Every option of the schema, drawn; the first choice of each (the all-zero draw) is the one
    that transforms or echoes text: whitespace kept, word order 2, detail "ngrams", lowercase off
    (it alone narrows the classes)."""
    chosen: dict = {}
    for name, prop, required in shape.options:
        if name in ("lowercase", "char_order", "word_order"):
            continue
        if name == "whitespace":
            value = _choice(draw, (True, False, None))
        elif name == "detail":
            value = _choice(draw, ("ngrams", "ngrams", "segments", "totals", None))
        elif "enum" in prop:
            value = _choice(draw, tuple(prop["enum"]) if required else (None, *prop["enum"]))
        elif prop.get("type") == "integer":
            value = draw(st.one_of(st.none(), st.integers(prop["minimum"], prop["maximum"])))
        elif prop.get("type") == "boolean":
            value = draw(st.one_of(st.none(), st.booleans()))
        else:
            continue
        if value is not None:
            chosen[name] = value
    if shape.option("word_order"):
        word_order = _choice(draw, (2, 1, 3, 4, 0, None))
        char_order = _choice(draw, (None, 6, 1, 2, 3, 4, 5, 7, 8, 9, 10, 0))
        if char_order == 0 and not word_order:
            char_order = None  # both orders 0 is invalid_input
        chosen.update({k: v for k, v in (("word_order", word_order), ("char_order", char_order)) if v is not None})
    if shape.option("lowercase"):
        # two in three lowercased; off is the all-zero draw, explicit false or omitted
        if draw(st.integers(0, 2)):
            chosen["lowercase"] = True
        elif _choice(draw, (None, False)) is False:
            chosen["lowercase"] = False
    return chosen


# --- words and tokens ---------------------------------------------------------------------------


@composite
def member(draw: Any, parts: tuple[tuple[str, ...], ...]) -> str:
    return "".join(_choice(draw, part) for part in parts)


def placed(piece: str, shape: str, before: str, after: str) -> str:
    return (before if shape in ("inside", "end") else "") + piece + (after if shape in ("inside", "start") else "")


def _other(draw: Any, affix: str) -> str:
    index = AFFIXES.index(affix)
    return AFFIXES[(index + 1 + draw(st.integers(0, len(AFFIXES) - 2))) % len(AFFIXES)]


@composite
def class_words(draw: Any, parts: tuple[tuple[str, ...], ...], references: int) -> tuple[str, list[str | None]]:
    """One class's words of a segment: the shared word and the pair's side of each text (None: no word).

    Returns (shared, [hypothesis side, reference 1 side, ...]).
    """
    piece = draw(member(parts))
    shape = _choice(draw, SHAPES)
    before, after = _choice(draw, AFFIXES), _choice(draw, AFFIXES)
    shared = placed(piece, shape, before, after)
    sides: list[str | None] = []
    for _ in range(1 + references):
        edit = _choice(draw, EDITS)
        if edit == WITHOUT:
            variant: str | None = placed("", shape, before, after) or None
        elif edit == OTHER_AFTER:
            variant = placed(piece, "inside" if shape in ("inside", "end") else "start", before, _other(draw, after))
        elif edit == OTHER_BEFORE:
            variant = placed(piece, "inside" if shape in ("inside", "start") else "end", _other(draw, before), after)
        else:
            variant = shared
        sides.append(variant)
    # the variant is on the hypothesis side or on the references' (the first reference always)
    if draw(st.booleans()):
        sides = [sides[0]] + [shared] * references
    else:
        sides = [shared, sides[1]] + [shared if draw(st.booleans()) else side for side in sides[2:]]
    return shared, sides


@composite
def segment_words(
    draw: Any, classes: tuple[CodePointClass, ...], lowercase: bool, references: int
) -> tuple[list[str], list[list[str]]]:
    """The hypothesis words and each reference's words of one segment, every class in both."""
    start = draw(st.integers(0, len(classes) - 1))
    hypothesis: list[str] = []
    refs: list[list[str]] = [[] for _ in range(references)]
    for cls in classes[start:] + classes[:start]:
        parts = cls.parts_for(lowercase)
        assert parts is not None
        shared, sides = draw(class_words(parts, references))
        for words, side in zip([hypothesis, *refs], sides):
            words.append(shared)
            if side is not None:
                words.append(side)
    hypothesis.append(HYPOTHESIS_END)
    for words in refs:
        words.append(REFERENCE_END)
    return hypothesis, refs


def code_point_classes(shape: Shape) -> Any:
    @composite
    def build(draw: Any) -> GeneratedCase:
        options = draw_options(draw, shape)
        lowercase = options.get("lowercase") is True
        classes = lowercase_classes() if lowercase else CLASSES
        segments = 1 if shape.fields == "sentence" else 1 + draw(st.integers(0, 2))
        references = 1 if shape.fields == "texts" else 1 + draw(st.integers(0, 2))
        drawn = [draw(segment_words(classes, lowercase, references)) for _ in range(segments)]
        if shape.fields == "texts":
            payload: dict = {
                "hypotheses": [" ".join(hypothesis) for hypothesis, _ in drawn],
                "references": [" ".join(refs[0]) for _, refs in drawn],
            }
            assert not lowercase or lowercase_safe(*payload["hypotheses"], *payload["references"])
        elif shape.fields == "corpus":
            payload = {"hypotheses": [h for h, _ in drawn], "references": [refs for _, refs in drawn]}
        else:
            payload = {"hypothesis": drawn[0][0], "references": drawn[0][1]}
        payload.update(options)
        for cls in classes:
            aimed(cls.label)
            if lowercase:
                aimed(f"{cls.label} {WITH_LOWERCASE}")
            if (
                options.get("whitespace") is True
                and options.get("char_order") != 0
                and cls.code_points() & shape.whitespace
            ):
                aimed(f"{cls.label} {WHITESPACE_KEPT}")
            if options.get("word_order", 0) > 0:
                aimed(f"{cls.label} {IN_WORD_NGRAMS}")
            if options.get("detail") == "ngrams":
                aimed(f"{cls.label} {ECHOED}")
        shown = ", ".join(f"{key} {value}" for key, value in options.items()) or "no options"
        which = "the lowercase-safe classes" if lowercase else "every class"
        return case(
            payload,
            EXPECT_OUTPUT,
            f"{which} of code point ({', '.join(c.label for c in classes)}) in every hypothesis and "
            f"reference, shared and edited; {len(drawn)} segment(s); {shown}",
        )

    return build()


def families(tool_id: str, version: str) -> list[Family]:
    shape = shape_of(tool_id, version)
    if shape is None:
        return []
    return [
        Family(
            NAME,
            "valid",
            code_point_classes(shape),
            "C0/C1 controls and U+0000, every line terminator, combining marks after letters and punctuation, "
            "ZWJ sequences, regional indicators, astral, noncharacters, private use: in every field, under every "
            "option that transforms or echoes text",
            aims=aims_of(shape),
            # every example holds every class: a fifth of the profile's examples (at least 5) reaches them all
            examples_share=EXAMPLES_SHARE,
        )
    ]
