"""The strict parser's nesting check (conformance.jsonio) agrees with a plain walk over every character.

The check is written with string operations for speed; the walk below is the obvious reading of
"no bracket outside a string opens deeper than MAX_NESTING levels", and Hypothesis holds the fast
check to it on texts made of what matters: brackets, quotes, backslashes and other characters.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conformance.jsonio import MAX_NESTING, _nesting_depth_ok


def walked_depth_ok(text: str) -> bool:
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return False
        elif ch in "]}":
            depth -= 1
    return True


PIECES = st.sampled_from(["[", "]", "{", "}", '"', "\\", "a", "\n", "[" * MAX_NESTING, "]" * MAX_NESTING])


@given(st.lists(PIECES, max_size=60).map("".join))
def test_the_fast_check_agrees_with_a_walk(text):
    assert _nesting_depth_ok(text) == walked_depth_ok(text)


def test_depth_at_and_past_the_limit():
    assert _nesting_depth_ok("[" * MAX_NESTING + "]" * MAX_NESTING)
    assert not _nesting_depth_ok("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1))
    assert _nesting_depth_ok('["' + "[" * 100 + '"]'), "brackets inside a string do not nest"
    assert not _nesting_depth_ok('["\\\\"' + "[" * 100), "an escaped backslash does not escape the quote"
    assert _nesting_depth_ok("]" * 100 + "[" * MAX_NESTING), "unopened closers count down, as in a walk"
