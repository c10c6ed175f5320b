"""chrf-plus-plus-compute with four typical shortcuts, each of which can be taken alone or with others:

    utf16       character n-grams over UTF-16 code units, as JavaScript's string.length and slice count
                (semantics 2 says code points): an astral code point is two characters
    whitespace  the whitespace set is JavaScript's \\s (U+FEFF in; U+001C-U+001F and U+0085 out), written
                out here from ECMAScript's WhiteSpace and LineTerminator, for the characters and the word
                split both (semantics 2 lists the contract's set, semantics 3 splits on it)
    control     word tokens drop the control characters (category Cc) the word split left in them
                (semantics 3 keeps every code point that is not whitespace)
    surrogates  lone surrogates are not rejected (semantics 7)

``implementation(shortcuts)`` is the execute function taking those shortcuts; ``execute`` (a ``python:``
target) takes all four. Validation and the score's formula are the oracle's.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from typing import Any

import oracle
from oracle import chrf

ALL = frozenset({"utf16", "whitespace", "control", "surrogates"})
TOOL = "chrf-plus-plus-compute"

CONTRACT_SPACE = re.compile("[\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
JAVASCRIPT_SPACE = re.compile("[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
MARKS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"


def implementation(shortcuts: frozenset[str] | set[str]) -> Callable[[str, str, Any], dict]:
    space = JAVASCRIPT_SPACE if "whitespace" in shortcuts else CONTRACT_SPACE

    def characters(text: str) -> list[str]:
        kept = space.sub("", text)
        if "utf16" not in shortcuts:
            return list(kept)
        data = kept.encode("utf-16-le", "surrogatepass")
        return [data[i : i + 2].hex() for i in range(0, len(data), 2)]

    def words(text: str) -> list[str]:
        tokens = []
        for word in space.split(text):
            if "control" in shortcuts:
                word = "".join(c for c in word if unicodedata.category(c) != "Cc")
            if not word:
                continue
            if len(word) > 1 and word[-1] in MARKS:
                tokens += [word[:-1], word[-1]]
            elif len(word) > 1 and word[0] in MARKS:
                tokens += [word[0], word[1:]]
            else:
                tokens.append(word)
        return tokens

    def counts(units: list, n: int) -> Counter:
        return Counter(tuple(units[i : i + n]) for i in range(len(units) - n + 1))

    def statistics(hypothesis: str, reference: str) -> list[chrf.OrderStatistics]:
        hc, rc, hw, rw = characters(hypothesis), characters(reference), words(hypothesis), words(reference)
        return [chrf.order_statistics(counts(hc, n), counts(rc, n)) for n in range(1, 7)] + [
            chrf.order_statistics(counts(hw, n), counts(rw, n)) for n in range(1, 3)
        ]

    def execute(tool_id: str, version: str, payload: Any) -> dict:
        checked = payload
        if "surrogates" in shortcuts and isinstance(payload, dict):
            checked = {
                key: [LONE_SURROGATE.sub("\ufffd", t) if isinstance(t, str) else t for t in value]
                if key in ("hypotheses", "references") and isinstance(value, list)
                else value
                for key, value in payload.items()
            }
        output = oracle.execute(tool_id, version, checked)  # the oracle's validation of everything else
        if tool_id != TOOL:
            return output
        beta = int(payload.get("beta", 2))
        prepare = str.lower if payload.get("lowercase", False) else str
        hypotheses = [prepare(t) for t in payload["hypotheses"]]
        references = [prepare(t) for t in payload["references"]]
        per_segment = [statistics(h, r) for h, r in zip(hypotheses, references)]
        corpus = 100 * chrf.f_score(chrf.corpus_statistics(per_segment), beta)
        return {
            **output,
            "score": chrf.six_decimals(corpus),
            "score_fraction": chrf.fraction_text(corpus),
            "segment_scores": [chrf.six_decimals(100 * chrf.f_score(s, beta)) for s in per_segment],
            "word_tokens": [{"hypothesis": words(h), "reference": words(r)} for h, r in zip(hypotheses, references)],
        }

    return execute


execute = implementation(ALL)
