"""Generated cases for bleu-brevity-penalty: lengths only, closest reference lengths with ties,
c > r, c = r, c = 0, r = 0, every decimals value, lengths and sums at their limits, and the stated
validation order (fields, then equal segment counts, then the limits)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from conformance.strategies import aiming, bleu, keys, magnitudes, widths
from conformance.strategies.aiming import integral_float, option
from conformance.strategies.base import (
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

DECIMALS = st.one_of(st.none(), st.integers(0, 15), st.sampled_from(range(16)))


def with_options(candidates: list, references: list, decimals) -> dict:
    payload = {"candidate_lengths": candidates, "reference_lengths": references}
    if decimals is not None:
        payload["decimals"] = decimals
    return payload


@composite
def segment(draw, largest: int = 60) -> tuple[int, list[int]]:
    """A candidate length and its reference lengths: ties on both sides, all shorter, all longer, equal."""
    c = draw(st.integers(0, largest))
    shape = draw(st.sampled_from(("tie", "shorter", "longer", "equal", "any")))
    if shape == "tie":
        d = draw(st.integers(1, 5))
        references = [c + d, max(0, c - d)] if draw(st.booleans()) else [max(0, c - d), c + d]
    elif shape == "shorter":
        references = [max(0, c - draw(st.integers(1, 5))) for _ in range(draw(st.integers(1, 8)))]
    elif shape == "longer":
        references = [c + draw(st.integers(1, 5)) for _ in range(draw(st.integers(1, 8)))]
    elif shape == "equal":
        references = [c, *draw(st.lists(st.integers(0, largest), max_size=7))]
    else:
        references = draw(st.lists(st.integers(0, largest), min_size=1, max_size=8))
    return c, draw(st.permutations(references))


def lengths_family() -> st.SearchStrategy:
    @composite
    def build(draw):
        rows = draw(st.lists(segment(), min_size=1, max_size=6))
        payload = with_options([c for c, _ in rows], [refs for _, refs in rows], draw(DECIMALS))
        return case(payload, EXPECT_OUTPUT, f"segments (c, reference lengths): {rows}")

    return build()


def ratio_family() -> st.SearchStrategy:
    """c <= r over every magnitude of r/c, so exp(1 - r/c) runs from 1 down to underflow."""

    @composite
    def build(draw):
        c = draw(st.integers(1, 2000))
        r = draw(st.one_of(st.integers(c, c + 10), st.integers(c, 40 * c), st.just(1_048_576)))
        payload = with_options([c], [[r]], draw(DECIMALS))
        return case(payload, EXPECT_OUTPUT, f"c = {c}, r = {r}: brevity penalty exp(1 - {r}/{c})")

    return build()


def zero_lengths_family() -> st.SearchStrategy:
    @composite
    def build(draw):
        segments = draw(st.integers(1, 4))
        references = [draw(st.lists(st.integers(0, 5), min_size=1, max_size=3)) for _ in range(segments)]
        payload = with_options([0] * segments, references, draw(DECIMALS))
        return case(payload, EXPECT_OUTPUT, "every candidate length 0: c = 0, brevity penalty exactly 0")

    return build()


def every_decimals() -> st.SearchStrategy:
    @composite
    def build(draw):
        c = draw(st.integers(1, 50))
        payload = with_options([c], [[c + draw(st.integers(1, 20))]], draw(st.integers(0, 15)))
        return case(payload, EXPECT_OUTPUT, f"decimals {payload['decimals']} on exp(1 - r/c) with c < r")

    return build()


def integers_as_floats() -> st.SearchStrategy:
    """Lengths and decimals written with a fraction: "4.0 is the integer 4"."""

    @composite
    def build(draw):
        rows = draw(st.lists(segment(), min_size=1, max_size=4))
        candidates = [float(c) if draw(st.booleans()) else c for c, _ in rows]
        candidates[0] = float(candidates[0])
        references = [[float(r) if draw(st.booleans()) else r for r in refs] for _, refs in rows]
        decimals = draw(DECIMALS)
        payload = with_options(candidates, references, None if decimals is None else float(decimals))
        return case(payload, EXPECT_OUTPUT, "lengths (and decimals) written as floats such as 12.0")

    return build()


def boundary_families(tool_id: str, version: str) -> list[Family]:
    limit = limits(tool_id, version)

    @composite
    def max_segments(draw):
        past = draw(st.booleans())
        count = limit["max_segments"] + (1 if past else 0)
        c, references = draw(segment())
        payload = with_options([c] * count, [list(references) for _ in range(count)], draw(DECIMALS))
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"{count} segments (max_segments {limit['max_segments']})",
        )

    @composite
    def max_references(draw):
        past = draw(st.booleans())
        count = limit["max_references_per_segment"] + (1 if past else 0)
        lengths = draw(st.lists(st.integers(0, 20), min_size=count, max_size=count))
        payload = with_options([3, 5], [[4], lengths], draw(DECIMALS))
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"{count} reference lengths in one segment (max {limit['max_references_per_segment']})",
        )

    @composite
    def max_length(draw):
        past = draw(st.booleans())
        length = limit["max_length"] + (1 if past else 0)
        segments = draw(st.sampled_from((1, 2, 1000)))
        where = draw(st.sampled_from(("candidate", "reference")))
        candidates = [draw(st.integers(0, limit["max_length"])) for _ in range(segments)]
        references = [[draw(st.integers(0, limit["max_length"]))] for _ in range(segments)]
        if where == "candidate":
            candidates[-1] = length
        else:
            references[-1].append(length)
        payload = with_options(candidates, references, draw(DECIMALS))
        return case(
            payload,
            LIMIT_EXCEEDED if past else EXPECT_OUTPUT,
            f"a {where} length of {length} among {segments} segments (max_length {limit['max_length']}); "
            f"sums up to {segments} x {limit['max_length']}",
        )

    @composite
    def decimals_extremes(draw):
        rows = draw(st.lists(segment(), min_size=1, max_size=3))
        payload = with_options(
            [c for c, _ in rows], [refs for _, refs in rows], draw(st.sampled_from((0, 15, 0.0, 15.0)))
        )
        return case(payload, EXPECT_OUTPUT, f'decimals {payload["decimals"]!r} ("4.0 is the integer 4")')

    return [
        Family("boundary/max-segments", "boundary", max_segments(), "1000 and 1001 segments"),
        Family("boundary/max-references", "boundary", max_references(), "8 and 9 reference lengths"),
        Family(
            "boundary/max-length",
            "boundary",
            max_length(),
            "a length of 1,048,576 and 1,048,577; sums of up to 1000 such lengths (past 2^30)",
        ),
        Family("boundary/decimals", "boundary", decimals_extremes(), "decimals 0 and 15, also written 0.0 and 15.0"),
    ]


Mutation = Callable[[dict, Callable], str]


def _set(key: str, values: tuple) -> Mutation:
    def mutate(payload: dict, draw: Callable) -> str:
        payload[key] = draw(st.sampled_from(values))
        return f"{key} is {payload[key]!r}"

    return mutate


def _length(values: tuple) -> Mutation:
    def mutate(payload: dict, draw: Callable) -> str:
        if draw(st.booleans()):
            i = draw(st.integers(0, len(payload["candidate_lengths"]) - 1))
            payload["candidate_lengths"][i] = draw(st.sampled_from(values))
            return f"candidate_lengths[{i}] is {payload['candidate_lengths'][i]!r}"
        i = draw(st.integers(0, len(payload["reference_lengths"]) - 1))
        j = draw(st.integers(0, len(payload["reference_lengths"][i]) - 1))
        payload["reference_lengths"][i][j] = draw(st.sampled_from(values))
        return f"reference_lengths[{i}][{j}] is {payload['reference_lengths'][i][j]!r}"

    return mutate


def _unknown_key(payload: dict, draw: Callable) -> str:
    key = draw(st.sampled_from(("candidate_length", "references", "max_order", "", "__proto__", "constructor")))
    payload[key] = 1
    return f"unknown key {key!r}"


def _missing_key(payload: dict, draw: Callable) -> str:
    key = draw(st.sampled_from(("candidate_lengths", "reference_lengths")))
    del payload[key]
    return f"required key {key!r} is missing"


def _empty_reference_list(payload: dict, draw: Callable) -> str:
    i = draw(st.integers(0, len(payload["reference_lengths"]) - 1))
    payload["reference_lengths"][i] = []
    return f"reference_lengths[{i}] is empty"


BAD_LENGTHS = (-1, 4.5, "4", True, None, [4], 2**63)
RULE_BROKEN: dict[Mutation, str] = {  # each mutation and the aimed feature it gives
    _set("candidate_lengths", (None, 3, "3", [], {"0": 3})): "candidate_lengths of a wrong type or empty",
    _set("reference_lengths", (None, [3], [], [[]], "3", {"0": [3]})): "reference_lengths of a wrong type or empty",
    _set("decimals", (-1, 16, 2.5, "6", True, None)): "decimals out of range or of a wrong type",
    _length(BAD_LENGTHS): "a negative, fractional, huge or non-number length",
    _unknown_key: "an unknown key (also named like an object property)",
    _missing_key: "a missing key",
    _empty_reference_list: "an empty reference list",
}
MUTATIONS: tuple[Mutation, ...] = tuple(RULE_BROKEN)


def invalid_families(tool_id: str, version: str) -> list[Family]:
    limit = limits(tool_id, version)

    @composite
    def ordinary(draw) -> dict:
        rows = draw(st.lists(segment(), min_size=1, max_size=4))
        return with_options([c for c, _ in rows], [list(refs) or [0] for _, refs in rows], draw(DECIMALS))

    @composite
    def schema(draw):
        payload = draw(ordinary())
        mutation = draw(st.sampled_from(MUTATIONS))
        what = mutation(payload, draw)
        aimed(RULE_BROKEN[mutation])
        return case(payload, INVALID_INPUT, f"breaks one rule of a field: {what}")

    @composite
    def segment_counts(draw):
        payload = draw(ordinary())
        if draw(st.booleans()):
            payload["candidate_lengths"].append(draw(st.integers(0, 9)))
        else:
            payload["reference_lengths"].append([draw(st.integers(0, 9))])
        return case(
            payload,
            INVALID_INPUT,
            f"{len(payload['candidate_lengths'])} candidate lengths but "
            f"{len(payload['reference_lengths'])} reference lists",
        )

    @composite
    def stated_order(draw):
        """Two rules broken: the first in the stated order decides."""
        which = draw(st.sampled_from(("counts-before-segments", "field-before-length", "field-before-counts")))
        aimed(which)
        if which == "counts-before-segments":  # "1001 candidate lengths against 1000 reference lists are invalid_input"
            payload = with_options([1] * (limit["max_segments"] + 1), [[1]] * limit["max_segments"], None)
            return case(payload, INVALID_INPUT, "1001 candidate lengths against 1000 reference lists")
        payload = draw(ordinary())
        if which == "field-before-length":
            payload["candidate_lengths"][0] = limit["max_length"] + 1
            payload["decimals"] = draw(st.sampled_from((16, -1, "2")))
            return case(payload, INVALID_INPUT, "a length over max_length and decimals out of range: the field decides")
        payload["candidate_lengths"].append(1)
        payload["reference_lengths"][0] = draw(st.sampled_from(([-1], [2.5], ["1"])))
        return case(payload, INVALID_INPUT, "unequal segment counts and a bad reference length: both invalid_input")

    return [
        Family(
            "invalid/not-an-object",
            "invalid",
            sampled_by_index(bleu.NON_OBJECTS).map(
                lambda value: case(value, INVALID_INPUT, f"top level is {value!r}, not an object")
            ),
            "the input is an array, string, number, null or boolean",
        ),
        Family(
            "invalid/schema",
            "invalid",
            schema(),
            "one rule of a field broken: wrong types, negative or fractional lengths, empty lists, keys",
            aims=tuple(RULE_BROKEN.values()),
        ),
        Family("invalid/segment-counts", "invalid", segment_counts(), "unequal candidate and reference counts"),
        Family(
            "invalid/stated-order",
            "invalid",
            stated_order(),
            "two rules broken at once where the stated order decides",
            aims=("counts-before-segments", "field-before-length", "field-before-counts"),
        ),
    ]


def families(tool_id: str, version: str) -> list[Family]:
    return aiming.with_aims(
        [
            Family(
                "valid/lengths",
                "valid",
                lengths_family(),
                "closest reference lengths: ties both ways, all shorter, all longer, equal; decimals",
            ),
            Family("valid/ratios", "valid", ratio_family(), "r/c from 1 to 40 and beyond: exp(1 - r/c) to underflow"),
            Family("valid/zero-candidates", "valid", zero_lengths_family(), "c = 0 with r = 0 and r > 0"),
            Family(
                "valid/every-decimals",
                "valid",
                every_decimals(),
                "each decimals value 0..15 on a brevity penalty below 1",
            ),
            Family("valid/integers-as-floats", "valid", integers_as_floats(), "lengths and decimals written 12.0"),
            *boundary_families(tool_id, version),
            *invalid_families(tool_id, version),
            *representation_families(tool_id, version),
        ],
        aimed_features(limits(tool_id, version)),
    )


def _rows(generated) -> list[tuple]:
    return list(zip(generated.input["candidate_lengths"], generated.input["reference_lengths"]))


def in_a_row(test) -> aiming.Predicate:
    return lambda generated: any(test(c, references) for c, references in _rows(generated))


def aimed_features(limit: dict) -> dict[str, aiming.Features]:
    decimals_extremes = {
        "decimals 0": option("decimals", 0, 0.0),
        "decimals 15": option("decimals", 15, 15.0),
        "decimals 1 to 14": lambda g: g.input.get("decimals") in range(1, 15),
    }
    return {
        "valid/lengths": {
            "a tie between a shorter and a longer reference": in_a_row(lambda c, refs: bleu.tied(c, refs)),
            "every reference shorter": in_a_row(lambda c, refs: all(r < c for r in refs)),
            "every reference longer": in_a_row(lambda c, refs: all(r > c for r in refs)),
            "a reference as long as the candidate": in_a_row(lambda c, refs: c in refs),
        },
        "valid/ratios": {
            "r = c": in_a_row(lambda c, refs: refs == [c]),
            "r/c above 10": in_a_row(lambda c, refs: refs[0] > 10 * c),
            "r at max_length": in_a_row(lambda c, refs: refs[0] == limit["max_length"]),
            "exp(1 - r/c) below the smallest double (r/c > 746)": in_a_row(lambda c, refs: refs[0] > 746 * c),
        },
        "valid/zero-candidates": {
            "a reference length 0 beside c = 0": in_a_row(lambda c, refs: 0 in refs),
            "only reference lengths above 0": in_a_row(lambda c, refs: 0 not in refs),
        },
        "valid/every-decimals": decimals_extremes,
        "valid/integers-as-floats": {
            "a reference length written as a float": in_a_row(lambda c, refs: any(isinstance(r, float) for r in refs)),
            "decimals written as a float": integral_float("decimals"),
        },
        "boundary/max-segments": bleu.LIMIT_SIDES,
        "boundary/max-references": bleu.LIMIT_SIDES,
        "boundary/max-length": {
            **bleu.LIMIT_SIDES,
            "in a candidate length": lambda g: max(g.input["candidate_lengths"]) >= limit["max_length"],
            "in a reference length": in_a_row(lambda c, refs: max(refs) >= limit["max_length"]),
            "1000 segments: sums past 2^30": lambda g: len(g.input["candidate_lengths"]) == limit["max_segments"],
        },
        "boundary/decimals": {
            "decimals 0": option("decimals", 0, 0.0),
            "decimals 15": option("decimals", 15, 15.0),
            "decimals written as a float": integral_float("decimals"),
        },
        "invalid/not-an-object": aiming.NOT_AN_OBJECT,
        "invalid/segment-counts": {
            "more candidate lengths": lambda g: len(g.input["candidate_lengths"]) > len(g.input["reference_lengths"]),
            "more reference lists": lambda g: len(g.input["candidate_lengths"]) < len(g.input["reference_lengths"]),
        },
    }


def representation_families(tool_id: str, version: str) -> list[Family]:
    """Lengths crossing 2^15, 2^16 and 2^20, penalties in every decade, inherited names as keys."""
    limit = limits(tool_id, version)
    return [
        magnitudes.penalty_magnitudes(limit["max_length"]),
        widths.wide_lengths_family(limit["max_length"], limit["max_segments"], DECIMALS),
        keys.property_named_keys(lengths_family().map(lambda generated: generated.input)),
    ]
