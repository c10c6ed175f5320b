"""The cause a tool's own answer shows: where a differing answer says more than its first difference.

    answer_cause(tool, payload, actual) -> AnswerCause | None

A chrF++ score depends on every semantics line, so a wrong score alone names none (compare.clause). But
the answer holds more: its word tokens, and an exact score_fraction with every segment's score. A wrong
answer is read here, telling difference first:

1. word tokens that differ are the telling difference (they enter the score): one cause ``/word_tokens``,
   whichever segment, side or position shows it first and whether a token is changed, missing or extra.
   Where the target's tokens are exactly the contract's rule applied with another whitespace set (the
   set is read from the answer: a whitespace-like code point of the text is a separator for the target
   exactly when no token of its holds it), the cause is the whitespace set (semantics 2 lists it).
2. word tokens that agree, with a score that differs: a mechanism is named only when it reproduces the
   target's whole score exactly (score_fraction, score and every segment score), never as a guess:
   another whitespace set removed from the characters (semantics 2), or character n-grams counted over
   UTF-16 code units instead of code points (semantics 2), or both.

Anything else is left to the clause of the first difference. Reading the answer never changes a verdict:
it only decides which failures are one cause.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from oracle import chrf
from oracle.tool import Tool

WHITESPACE_SET = "whitespace set"
CODE_UNITS = "UTF-16 code units"

# Code points some definition of whitespace holds: the contract's set, JavaScript's \s (which adds U+FEFF),
# and the format characters once or elsewhere called spaces (U+180E, U+200B, U+2060).
WHITESPACE_LIKE = chrf.WHITESPACE | {"\u180e", "\u200b", "\u2060", "\ufeff"}
# The sets an implementation most often borrows: JavaScript's \s, Unicode White_Space, ASCII's, the space.
# (ECMAScript WhiteSpace and LineTerminator: no U+001C-U+001F, no U+0085; U+FEFF)
JAVASCRIPT_SPACE = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(map(chr, range(0x2000, 0x200B)))
)
UNICODE_WHITE_SPACE = chrf.WHITESPACE - set("\x1c\x1d\x1e\x1f")
ASCII_SPACE = frozenset(" \t\n\v\f\r")
BORROWED_SETS = (JAVASCRIPT_SPACE, UNICODE_WHITE_SPACE, ASCII_SPACE, frozenset(" "))

FIELDS = ("/score", "/score_fraction", "/segment_scores", "/word_tokens")  # where the reading applies


@dataclass(frozen=True)
class AnswerCause:
    pointer_class: str  # the field that shows the cause
    line: int  # the semantics line broken
    mechanism: str | None  # how, where the answer shows it ("whitespace set"), else None


def answer_cause(tool: Tool, payload: Any, actual: Any, pointer: str) -> AnswerCause | None:
    """The cause ``actual`` (a schema-valid answer differing first at ``pointer``) shows, or None."""
    reader = reader_of(tool)
    if reader is None or not any(pointer == f or pointer.startswith(f + "/") for f in FIELDS):
        return None
    return reader(tool, payload, actual)


# ---------------------------------------------------------------- chrF++


def _texts(payload: dict) -> tuple[list[str], list[str]]:
    hypotheses, references = list(payload["hypotheses"]), list(payload["references"])
    if payload.get("lowercase", False):
        hypotheses, references = [chrf.lowercase(t) for t in hypotheses], [chrf.lowercase(t) for t in references]
    return hypotheses, references


def tokens_with(text: str, spaces: frozenset[str]) -> list[str]:
    """The word tokens of semantics 3 with ``spaces`` as the whitespace set."""
    tokens: list[str] = []
    word: list[str] = []
    for character in [*text, None]:
        if character is not None and character not in spaces:
            word.append(character)
        elif word:
            tokens.extend(_split_mark("".join(word)))
            word = []
    return tokens


def _split_mark(word: str) -> list[str]:
    """At most one ASCII mark split off a word (semantics 3)."""
    if len(word) == 1:
        return [word]
    if word[-1] in chrf.PUNCTUATION:
        return [word[:-1], word[-1]]
    if word[0] in chrf.PUNCTUATION:
        return [word[0], word[1:]]
    return [word]


def _read_tokens(answer: Any) -> list[tuple[list[str], list[str]]] | None:
    try:
        rows = [(list(row["hypothesis"]), list(row["reference"])) for row in answer]
    except (KeyError, TypeError):
        return None
    return rows if all(isinstance(t, str) for row in rows for side in row for t in side) else None


def _spaces_read_from(texts: list[str], tokens: Iterable[list[str]]) -> frozenset[str]:
    """The whitespace set the tokens show: the contract's, but for each whitespace-like code point of the
    texts a separator exactly when no token holds it."""
    present = {c for text in texts for c in text if c in WHITESPACE_LIKE}
    held = {c for side in tokens for token in side for c in token if c in present}
    return frozenset((chrf.WHITESPACE - present) | (present - held))


def _code_points(text: str) -> list[str]:
    return list(text)


def _code_units(text: str) -> list[str]:
    """UTF-16 code units, each as a string of its own (an astral code point gives two)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i : i + 2].decode("utf-16-le", "surrogatepass") for i in range(0, len(data), 2)]


def _char_counts(units: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(units[i : i + n]) for i in range(len(units) - n + 1))


def _segment_statistics(
    hypothesis: str, reference: str, spaces: frozenset[str], units: Callable[[str], list[str]]
) -> list[chrf.OrderStatistics]:
    """A segment's rows with the contract's word tokens, its characters without ``spaces`` split into ``units``."""
    hyp_units = units("".join(c for c in hypothesis if c not in spaces))
    ref_units = units("".join(c for c in reference if c not in spaces))
    hyp_words, ref_words = chrf.word_tokens(hypothesis), chrf.word_tokens(reference)
    stats = [chrf.order_statistics(_char_counts(hyp_units, n), _char_counts(ref_units, n)) for n in range(1, 7)]
    stats += [
        chrf.order_statistics(chrf.word_ngram_counts(hyp_words, n), chrf.word_ngram_counts(ref_words, n))
        for n in range(1, 3)
    ]
    return stats


def _scores(per_segment: list[list[chrf.OrderStatistics]], beta: int) -> tuple[str, str, list[str]]:
    """(score, score_fraction, segment_scores) of these rows."""
    corpus = 100 * chrf.f_score(chrf.corpus_statistics(per_segment), beta)
    segments = [chrf.six_decimals(100 * chrf.f_score(stats, beta)) for stats in per_segment]
    return chrf.six_decimals(corpus), chrf.fraction_text(corpus), segments


def _score_mechanism(payload: dict, hypotheses: list[str], references: list[str], actual: dict) -> str | None:
    """The mechanism reproducing the target's whole score (tokens agreeing), or None."""
    try:
        wanted = (str(actual["score"]), str(Fraction(actual["score_fraction"])), list(actual["segment_scores"]))
        beta = int(payload.get("beta", 2))
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    pairs = list(zip(hypotheses, references))
    texts = [*hypotheses, *references]
    present = {c for text in texts for c in text if c in WHITESPACE_LIKE}
    flips = [chrf.WHITESPACE ^ {c} for c in sorted(present)]
    borrowed = [(chrf.WHITESPACE - present) | (spaces & present) for spaces in BORROWED_SETS]
    other_sets = list(dict.fromkeys(s for s in [*borrowed, *flips] if s & present != chrf.WHITESPACE & present))
    contract = _scores([_segment_statistics(h, r, chrf.WHITESPACE, _code_points) for h, r in pairs], beta)
    if contract == wanted or len(wanted[2]) != len(pairs):
        return None  # the score is the contract's (another field differs), or no segment scores to read
    # the first segment whose score differs: a mechanism must give it before the whole input is tried
    probe = next((i for i, (ours, theirs) in enumerate(zip(contract[2], wanted[2])) if ours != theirs), None)
    tries: list[tuple[str, frozenset[str], Callable[[str], list[str]]]] = [
        (WHITESPACE_SET, spaces, _code_points) for spaces in other_sets
    ]
    if any(ord(c) > 0xFFFF for text in texts for c in text):
        tries.append((CODE_UNITS, chrf.WHITESPACE, _code_units))
        tries += [(WHITESPACE_SET, spaces, _code_units) for spaces in other_sets]
    for mechanism, spaces, units in tries:
        if probe is not None:
            rows = _segment_statistics(*pairs[probe], spaces, units)
            if chrf.six_decimals(100 * chrf.f_score(rows, beta)) != wanted[2][probe]:
                continue
        if _scores([_segment_statistics(h, r, spaces, units) for h, r in pairs], beta) == wanted:
            return mechanism
    return None


def read_chrf_plus_plus(tool: Tool, payload: Any, actual: Any) -> AnswerCause | None:
    if not isinstance(payload, dict) or not isinstance(actual, dict):
        return None
    hypotheses, references = _texts(payload)
    rows = _read_tokens(actual.get("word_tokens"))
    if rows is None or len(rows) != len(hypotheses):
        return None
    contract = [(chrf.word_tokens(h), chrf.word_tokens(r)) for h, r in zip(hypotheses, references)]
    if rows != contract:
        spaces = _spaces_read_from([*hypotheses, *references], (side for row in rows for side in row))
        shown = [(tokens_with(h, spaces), tokens_with(r, spaces)) for h, r in zip(hypotheses, references)]
        if shown == rows:
            return AnswerCause("/word_tokens", 2, WHITESPACE_SET)
        return AnswerCause("/word_tokens", 3, None)
    mechanism = _score_mechanism(payload, hypotheses, references, actual)
    return AnswerCause("/score", 2, mechanism) if mechanism else None


# A reader per kind of answer, found by the fields the tool's output schema declares (never by tool id): an
# answer with its word tokens and an exact score fraction is chrF++'s.
READERS: list[tuple[frozenset[str], Callable[[Tool, Any, Any], AnswerCause | None]]] = [
    (frozenset({"word_tokens", "score_fraction", "segment_scores"}), read_chrf_plus_plus),
]


def reader_of(tool: Tool) -> Callable[[Tool, Any, Any], AnswerCause | None] | None:
    fields = set(tool.contract.output_schema.get("properties", {}))
    return next((reader for needs, reader in READERS if needs <= fields), None)
