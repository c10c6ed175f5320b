"""What several library modules' adapters share: the tools a BLEU-only library lacks, the effective order most
lack, a BLEU input's segments, and the answers and domain of the libraries descended from tensorflow/nmt's
``compute_bleu`` (bleu-mp, bleuscore). Not a library module (its name starts with "_")."""

from __future__ import annotations

from typing import TypedDict

from conformance.implementations import NotApplicable, Partial, rounded

CHRF_TOOLS = ("chrf_compute", "chrf_plus_plus_compute", "chrf_components")


def no_chrf(library: str) -> dict[str, str]:
    """NOT_EXPRESSIBLE of a library without chrF: each chrF tool, for that reason."""
    return {name: f"{library} has no chrF" for name in CHRF_TOOLS}


def no_effective_order(payload: dict, library: str) -> None:
    """NotApplicable for effective_order true, which a library averaging over every order cannot express."""
    if payload.get("effective_order", False):
        raise NotApplicable(f"effective_order true: {library} has no effective order")


def segments_of(payload: dict) -> tuple[list[list[str]], list[list[list[str]]]]:
    """(hypotheses, references) of a corpus or a one-segment input."""
    if "hypothesis" in payload:
        return [payload["hypothesis"]], [payload["references"]]
    return payload["hypotheses"], payload["references"]


def compute_bleu_sentence(payload: dict, library: str) -> tuple[list[list[str]], list[list[list[str]]]]:
    """The one segment of a bleu-sentence-compute input as a corpus, for a library whose ``smooth`` adds 1 to every
    order (p_1 included: none of the contract's methods) and that has no effective order."""
    if payload["smoothing"] != "none":
        raise NotApplicable(
            f"smoothing other than none: {library}'s smooth adds 1 to every order's counts, "
            "none of the contract's methods"
        )
    no_effective_order(payload, library)
    return segments_of(payload)


def score_and_lengths(
    payload: dict, bleu: float, brevity_penalty: float, candidate_length: int, reference_length: int
) -> Partial:
    """The fields a library reporting the score, the brevity penalty and the two lengths expresses (its floats
    with ``decimals``)."""
    return Partial(
        {
            "bleu": rounded(payload, bleu),
            "brevity_penalty": rounded(payload, brevity_penalty),
            "candidate_length": candidate_length,
            "reference_length": reference_length,
        }
    )


class Catalogued(TypedDict):
    shows: str
    clause: str


def catalogued(mechanism_id: str) -> Catalogued:
    """A Divergence's ``shows`` and ``clause`` where it departs from the very clause its catalogued mechanism
    quotes: ``Divergence(id=..., **catalogued("..."), ...)``."""
    from conformance.divergences import BY_ID

    mechanism = BY_ID[mechanism_id]
    return Catalogued(shows=mechanism.id, clause=mechanism.clause)
