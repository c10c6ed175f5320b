"""Generated cases for bleu-sentence-components: the one-segment BLEU families and every max_order."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance.strategies import bleu, bleu_sentence
from conformance.strategies.base import Family

OPTIONS = st.fixed_dictionaries({"max_order": bleu.MAX_ORDERS})


def families(tool_id: str, version: str) -> list[Family]:
    return [
        *bleu_sentence.valid_families(OPTIONS),
        *bleu_sentence.boundary_families(tool_id, version, OPTIONS),
        *bleu_sentence.invalid_families(tool_id, version, OPTIONS, (), ("hypothesis", "references")),
        *bleu_sentence.representation_families(
            tool_id, version, OPTIONS, bleu_sentence.ordinary_segment(), {"max_order": 8}
        ),
    ]
