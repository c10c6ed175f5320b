"""Families of several requests: sequences, bursts and the metamorphic relations the contracts imply.

Answers right one at a time can be wrong together. These families choose which inputs go
together, and in which order; each answer is still judged by the oracle against its own input
(conformance/steps.py), so nothing is asserted beyond the contracts:

- ``valid/sequence``: an input, then steps each the same input again, or an earlier input with
  exactly one field or option changed (another reference, one token changed, one segment added,
  another value of an option, an option left out), or the same input sent to another tool that
  accepts it, interleaved. A target caching answers by part of the input, or keeping state
  between requests, answers a later step wrong.
- ``valid/burst``: BURST_SIZE distinct requests released together from threads of their own.
- ``valid/relation-*``: reordered references, a duplicated reference, a corpus split in two
  requests, each family built only for a tool whose contract has the line implying the relation
  (quoted in the family's summary). With every answer judged by the oracle, a relation catches
  nothing the oracle comparison of each answer could not; what it adds is the aim: the related
  inputs are sent together, in one run, to the same target.

Why a drawn list of steps rather than Hypothesis's RuleBasedStateMachine: the engine runs every
family as one ``@given`` property (engine/properties.py: rounds, failure signatures, shrinking,
reproducers), so a sequence drawn as plain data fits it unchanged, a reproducer holds it as JSON
for ``conformance replay``, and Hypothesis shrinks the list of steps like any list: the minimal
failing sequence is the shortest one it finds. A step is drawn as small integers read against the
steps before it (which earlier input, which change, which value), so deleting a step never makes
the later ones undrawable. Inputs are kept small and drawn from a few tokens, so steps share
n-grams; every input is one the oracle accepts (the families are valid ones).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance.steps import BURST, SEQUENCE, step_dict
from conformance.strategies.base import EXPECT_OUTPUT, Family, GeneratedCase, aimed, composite, input_schema, semantics
from oracle.errors import ContractError
from oracle.registry import tool, tool_keys

BURST_SIZE = 8  # requests released together
MAX_STEPS = 6  # of a sequence, the first input included
SHARES = {"sequence": 1 / 3, "burst": 1 / 6, "relation": 1 / 6}  # of the profile's valid examples
WORDS = ("a", "b", "ab", "c.", "ba")

AGAIN, CHANGED, LEFT_OUT, REFERENCE, TOKEN, SEGMENT, OTHER_TOOL = (
    "the same input again",
    "an option changed",
    "an option left out",
    "another reference",
    "one token changed",
    "one segment added",
    "the same input to another tool",
)
AT_ONCE, BURST_OTHER_TOOL = f"{BURST_SIZE} distinct requests at once", "another tool in the burst"
REORDERED, DUPLICATED, SPLIT = "references reordered", "a reference duplicated", "a corpus split in two requests"


# -- the shape of a tool's input, read from its input schema ---------------------------------------


def _properties(tool_id: str, version: str) -> dict:
    return input_schema(tool_id, version)["properties"]


def _options(tool_id: str, version: str) -> dict:
    """The option fields: every field that is not a list of data (smoothing, required, is one)."""
    return {name: prop for name, prop in _properties(tool_id, version).items() if prop.get("type") != "array"}


def _is_texts(prop: dict) -> bool:
    return prop.get("items", {}).get("type") == "string"


def _segment_keys(x: dict) -> list[str]:
    """The parallel per-segment lists of a corpus input (empty for a one-segment input)."""
    if "hypothesis" in x:
        return []
    return [key for key in ("hypotheses", "references", "candidate_lengths", "reference_lengths") if key in x]


def _groups(x: dict) -> list[list] | None:
    """The reference lists of the input, one per segment (None: one reference per segment, a text)."""
    if "reference_lengths" in x:
        return x["reference_lengths"]
    if "hypothesis" in x:
        return [x["references"]]
    if x["references"] and isinstance(x["references"][0], list):
        return x["references"]
    return None


def _has_reference_lists(tool_id: str, version: str) -> bool:
    """Several references per segment (not chrF's one reference text)."""
    props = _properties(tool_id, version)
    return "reference_lengths" in props or ("references" in props and not _is_texts(props["references"]))


def _with_groups(x: dict, groups: list[list]) -> dict:
    key = "reference_lengths" if "reference_lengths" in x else "references"
    return {**x, key: groups[0] if "hypothesis" in x else groups}


def _shares_input(tool_id: str, version: str) -> bool:
    """Does another tool take the same data fields (so a step may send the same input to it)?"""
    data = {name for name, prop in _properties(tool_id, version).items() if prop.get("type") == "array"}
    return any(
        other != tool_id and data <= set(_properties(other, other_version)) for other, other_version in tool_keys()
    )


def accepts(tool_id: str, version: str, payload: dict) -> bool:
    """Does the oracle answer this input (rather than reject it)?"""
    try:
        tool(tool_id, version).execute(payload)
    except ContractError:
        return False
    return True


# -- drawing a small valid input ------------------------------------------------------------------

_tokens = st.lists(st.sampled_from(WORDS), max_size=5)
_text = _tokens.map(" ".join)


def _option_value(prop: dict) -> st.SearchStrategy:
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    if prop.get("type") == "boolean":
        return st.booleans()
    return st.integers(prop.get("minimum", 0), min(prop.get("maximum", 8), prop.get("minimum", 0) + 8))


@composite
def small_input(draw, tool_id: str, version: str, segments: int = 1) -> dict:
    """A small input the oracle accepts, of at least ``segments`` segments where the tool has several."""
    props, required = _properties(tool_id, version), input_schema(tool_id, version).get("required", [])
    count = draw(st.integers(segments, max(segments, 3)))
    x: dict[str, Any] = {}
    if "candidate_lengths" in props:
        x["candidate_lengths"] = draw(st.lists(st.integers(0, 9), min_size=count, max_size=count))
        x["reference_lengths"] = draw(
            st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=3), min_size=count, max_size=count)
        )
    elif "hypothesis" in props:
        x["hypothesis"] = draw(_tokens)
        x["references"] = draw(st.lists(_tokens, min_size=1, max_size=3))
    elif _is_texts(props["hypotheses"]):
        x["hypotheses"] = draw(st.lists(_text, min_size=count, max_size=count))
        x["references"] = draw(st.lists(_text, min_size=count, max_size=count))
    else:
        x["hypotheses"] = draw(st.lists(_tokens, min_size=count, max_size=count))
        x["references"] = draw(st.lists(st.lists(_tokens, min_size=1, max_size=3), min_size=count, max_size=count))
    for name, prop in _options(tool_id, version).items():
        if name in required or draw(st.booleans()):
            x[name] = draw(_option_value(prop))
    if not accepts(tool_id, version, x):  # e.g. chrF components with no order at all
        x = {key: value for key, value in x.items() if key not in _options(tool_id, version) or key in required}
        for name in required:
            if name in _options(tool_id, version) and name not in x:
                x[name] = _options(tool_id, version)[name]["enum"][0]
    return x


# -- one change to an earlier input ---------------------------------------------------------------


def _changed_token(tokens: list[str], position: int) -> list[str]:
    if not tokens:
        return [WORDS[position % len(WORDS)]]
    index = position % len(tokens)
    word = WORDS[(WORDS.index(tokens[index]) + 1) % len(WORDS)] if tokens[index] in WORDS else WORDS[0]
    return [*tokens[:index], word, *tokens[index + 1 :]]


def _changed_text(text: str, position: int) -> str:
    return " ".join(_changed_token(text.split(" ") if text else [], position))


def changes(tool_id: str, version: str, x: dict, value: int) -> list[tuple[str, dict]]:
    """Every input differing from ``x`` in exactly one field or option, each with its aim."""
    found: list[tuple[str, dict]] = []
    for name, prop in _options(tool_id, version).items():
        if "enum" in prop:
            others = [item for item in prop["enum"] if item != x.get(name)]
            found.append((CHANGED, {**x, name: others[value % len(others)]}))
        elif prop.get("type") == "boolean":
            found.append((CHANGED, {**x, name: not x.get(name, False)}))
        else:
            low, high = prop.get("minimum", 0), prop.get("maximum", 8)
            other = low + value % (high - low + 1)
            if other == x.get(name):
                other = low + (other - low + 1) % (high - low + 1)
            found.append((CHANGED, {**x, name: other}))
        if name in x and name not in input_schema(tool_id, version).get("required", []):
            found.append((LEFT_OUT, {key: item for key, item in x.items() if key != name}))
    groups = _groups(x)
    if groups is not None and len(groups[0]) < 8:
        extra = value % 10 if "reference_lengths" in x else _changed_token(groups[0][0], value)
        found.append((REFERENCE, _with_groups(x, [[*groups[0], extra], *groups[1:]])))
    elif groups is None and "references" in x:
        found.append((REFERENCE, {**x, "references": [_changed_text(x["references"][0], value), *x["references"][1:]]}))
    if "hypothesis" in x:
        found.append((TOKEN, {**x, "hypothesis": _changed_token(x["hypothesis"], value)}))
    elif "hypotheses" in x:
        change = _changed_text if isinstance(x["hypotheses"][0], str) else _changed_token
        found.append((TOKEN, {**x, "hypotheses": [change(x["hypotheses"][0], value), *x["hypotheses"][1:]]}))
    keys = _segment_keys(x)
    if keys:
        copied = value % len(x[keys[0]])
        found.append((SEGMENT, {**x, **{key: [*x[key], x[key][copied]] for key in keys}}))
    return [(aim, changed) for aim, changed in found if accepts(tool_id, version, changed)]


def other_tools(tool_id: str, version: str, x: dict, value: int) -> list[tuple[str, str, dict]]:
    """The same input (its fields another tool knows, with that tool's required options) for every
    other tool that answers it."""
    found = []
    for other_id, other_version in tool_keys():
        if other_id == tool_id:
            continue
        props = _properties(other_id, other_version)
        if not all(key in props for key in _segment_keys(x) + [key for key in ("hypothesis",) if key in x]):
            continue
        converted = {key: item for key, item in x.items() if key in props}
        for name in input_schema(other_id, other_version).get("required", []):
            if name not in converted and "enum" in props[name]:
                converted[name] = props[name]["enum"][value % len(props[name]["enum"])]
        if accepts(other_id, other_version, converted):
            found.append((other_id, other_version, converted))
    return found


# -- the families ---------------------------------------------------------------------------------


def _case(steps: list[dict], sending: str, description: str) -> GeneratedCase:
    return GeneratedCase(
        input=steps[0]["input"], expect=EXPECT_OUTPUT, description=description, steps=tuple(steps), sending=sending
    )


def _step(tool_id: str, version: str, x: dict, description: str) -> dict:
    return step_dict(tool_id, version, x, EXPECT_OUTPUT, description)


# (kind: again, changed or another tool; which earlier input; which change; the value it takes).
CHANGE_AIMS = (CHANGED, LEFT_OUT, REFERENCE, TOKEN, SEGMENT)
_operation = st.tuples(st.integers(0, 2), st.integers(0, 255), st.sampled_from(CHANGE_AIMS), st.integers(0, 255))


def sequence(tool_id: str, version: str) -> st.SearchStrategy[GeneratedCase]:
    @composite
    def draw_sequence(draw) -> GeneratedCase:
        first = draw(small_input(tool_id, version))
        steps, own = [_step(tool_id, version, first, "the first input")], [first]
        for kind, which, wanted, value in draw(st.lists(_operation, min_size=1, max_size=MAX_STEPS - 1)):
            earlier = own[which % len(own)]
            step = None
            if kind == 1:
                found = changes(tool_id, version, earlier, value)
                if found:
                    variants = [item for item in found if item[0] == wanted] or found
                    aim, changed = variants[value % len(variants)]
                    step = _step(tool_id, version, changed, f"{aim}, from input {own.index(earlier) + 1}")
                    own.append(changed)
            elif kind == 2:
                conversions = other_tools(tool_id, version, earlier, value)
                if conversions:
                    other_id, other_version, converted = conversions[value % len(conversions)]
                    aim = OTHER_TOOL
                    step = _step(other_id, other_version, converted, f"{aim} ({other_id})")
            if step is None:
                aim, step = AGAIN, _step(tool_id, version, earlier, AGAIN)
            aimed(aim)
            steps.append(step)
        return _case(steps, SEQUENCE, f"a sequence of {len(steps)} requests")

    return draw_sequence()


def burst(tool_id: str, version: str) -> st.SearchStrategy[GeneratedCase]:
    @composite
    def draw_burst(draw) -> GeneratedCase:
        inputs = draw(
            st.lists(
                small_input(tool_id, version),
                min_size=BURST_SIZE,
                max_size=BURST_SIZE,
                unique_by=lambda x: json.dumps(x, sort_keys=True),
            )
        )
        aimed(AT_ONCE)
        steps = []
        for number, x in enumerate(inputs):
            found = other_tools(tool_id, version, x, number) if draw(st.integers(0, 3)) == 3 else []
            if found:
                aimed(BURST_OTHER_TOOL)
                other_id, other_version, converted = found[number % len(found)]
                steps.append(_step(other_id, other_version, converted, f"request {number + 1} ({other_id})"))
            else:
                steps.append(_step(tool_id, version, x, f"request {number + 1}"))
        return _case(steps, BURST, f"{BURST_SIZE} requests released together")

    return draw_burst()


def _reordered(x: dict) -> dict | None:
    groups = _groups(x)
    if groups is None or all(len(set(map(json.dumps, group))) < 2 for group in groups):
        return None
    return _with_groups(x, [[*group[1:], group[0]] for group in groups])


def _duplicated(x: dict, which: int) -> dict | None:
    groups = _groups(x)
    if groups is None or len(groups[0]) >= 8:
        return None
    return _with_groups(x, [[*groups[0], groups[0][which % len(groups[0])]], *groups[1:]])


def _clipping(x: dict, at: int) -> dict:
    """Half the time, the first hypothesis made of its first reference twice over: its n-grams then
    occur more often than in any single reference, so clipping bounds them (where a duplicated
    reference can matter at all)."""
    groups = _groups(x)
    if at % 2 == 0 or groups is None or "reference_lengths" in x:
        return x
    twice = groups[0][0] * 2
    if "hypothesis" in x:
        return {**x, "hypothesis": twice}
    return {**x, "hypotheses": [twice, *x["hypotheses"][1:]]}


def _split(x: dict, at: int) -> list[dict] | None:
    keys = _segment_keys(x)
    if not keys or len(x[keys[0]]) < 2:
        return None
    cut = 1 + at % (len(x[keys[0]]) - 1)
    return [{**x, **{key: x[key][:cut] for key in keys}}, {**x, **{key: x[key][cut:] for key in keys}}]


def relation(
    tool_id: str,
    version: str,
    aim: str,
    related: Callable[[dict, int], list[dict] | None],
    segments: int,
    prepare: Callable[[dict, int], dict] = lambda x, _: x,
) -> st.SearchStrategy[GeneratedCase]:
    """The input (``prepare`` may shape it for the relation) and the inputs related to it, sent in order."""

    @composite
    def draw_related(draw) -> GeneratedCase:
        at = draw(st.integers(0, 7))
        x = draw(small_input(tool_id, version, segments))
        if accepts(tool_id, version, prepared := prepare(x, at)):
            x = prepared
        others = [item for item in related(x, at) or () if accepts(tool_id, version, item)]
        if others:
            aimed(aim)
        steps = [_step(tool_id, version, x, "the input"), *(_step(tool_id, version, item, aim) for item in others)]
        return _case(steps, SEQUENCE, f"{aim}: {len(steps)} requests")

    return draw_related()


# Which semantics lines imply each relation (the phrase that finds them in a contract).
REORDER_LINES = ("in any single reference", "ties going to the shorter")
SPLIT_LINES = ("over all segments", "is the sum of")


def implying(tool_id: str, version: str, phrases: tuple[str, ...]) -> list[str]:
    return [line for line in semantics(tool_id, version) if any(phrase in line for phrase in phrases)]


def _quoted(lines: list[str]) -> str:
    return " ".join(f"\u201c{line}\u201d" for line in lines)


def families(tool_id: str, version: str) -> list[Family]:
    """The tool's families of several requests (appended to its own by strategies.families)."""
    shape = dict.fromkeys(_properties(tool_id, version))
    shared = _shares_input(tool_id, version)
    aims = [
        AGAIN,
        CHANGED,
        TOKEN if ("hypothesis" in shape or "hypotheses" in shape) else None,
        REFERENCE,
        SEGMENT if _segment_keys(shape) else None,
        LEFT_OUT
        if any(name not in input_schema(tool_id, version).get("required", []) for name in _options(tool_id, version))
        else None,
    ]
    found = [
        Family(
            "valid/sequence",
            "valid",
            sequence(tool_id, version),
            "an input, then the same again and inputs differing in one field or option, interleaved "
            "across tools; every answer judged by the oracle against its own input",
            aims=tuple(aim for aim in aims if aim) + ((OTHER_TOOL,) if shared else ()),
            examples_share=SHARES["sequence"],
        ),
        Family(
            "valid/burst",
            "valid",
            burst(tool_id, version),
            f"{BURST_SIZE} distinct requests released together by a barrier, from threads of their own",
            aims=(AT_ONCE, BURST_OTHER_TOOL) if shared else (AT_ONCE,),
            examples_share=SHARES["burst"],
        ),
    ]
    reorder = implying(tool_id, version, REORDER_LINES)
    if reorder and _has_reference_lists(tool_id, version):
        found += [
            Family(
                "valid/relation-reference-order",
                "valid",
                relation(tool_id, version, REORDERED, lambda x, _: [y] if (y := _reordered(x)) else None, 1),
                "the references of a segment reordered: " + _quoted(reorder),
                aims=(REORDERED,),
                examples_share=SHARES["relation"],
            ),
            Family(
                "valid/relation-duplicated-reference",
                "valid",
                relation(
                    tool_id,
                    version,
                    DUPLICATED,
                    lambda x, at: [y] if (y := _duplicated(x, at // 2)) else None,
                    1,
                    prepare=_clipping,
                ),
                "a reference duplicated: " + _quoted(reorder),
                aims=(DUPLICATED,),
                examples_share=SHARES["relation"],
            ),
        ]
    split = implying(tool_id, version, SPLIT_LINES)
    if split and _segment_keys(shape):
        found.append(
            Family(
                "valid/relation-split-corpus",
                "valid",
                relation(tool_id, version, SPLIT, _split, 2),
                "a corpus and its two halves: " + _quoted(split),
                aims=(SPLIT,),
                examples_share=SHARES["relation"],
            )
        )
    return found
