"""A13: chrF++ "a word of one code point" measured in UTF-16 units."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A13",
    title='chrF++ "a word of one code point" measured in UTF-16 units',
    quotes=(Quote("semantics", "a word of one code point is kept"),),
    open="A JavaScript implementation may test word.length === 1, which counts UTF-16 units, so a single "
    "astral character has length 2.",
    readings=("one code point", "one UTF-16 unit"),
    oracle_reading="one code point",
    avoidance="Nothing to avoid: no input tells them apart. A one-code-point word that is astral fails the "
    "length test in UTF-16 and goes on to the punctuation tests, which never match its surrogate "
    "halves, so it is kept whole under both readings. (Character n-grams are stated to be code points; "
    "taking them over UTF-16 units is a bug the suite catches.)",
)
