"""bleu-corpus-compute with two unrelated bugs:

1. the closest reference length breaks a tie to the LONGER reference (the contract: the shorter), so
   reference_length, and the brevity penalty and bleu made from it, are off where a tie occurs;
2. unequal hypothesis and reference counts are not rejected: the lists are zipped (the shorter wins).

Everything else is the oracle's.
"""

import oracle
from oracle.bleu_score import bleu_score, brevity_penalty
from oracle.jsnumber import round_to_fixed


def closest_ties_to_longer(length, references):
    return min((abs(len(reference) - length), -len(reference)) for reference in references)[1] * -1


def execute(tool_id, version, payload):
    hypotheses, references = (
        (payload.get("hypotheses"), payload.get("references")) if isinstance(payload, dict) else (None, None)
    )
    if isinstance(hypotheses, list) and isinstance(references, list) and len(hypotheses) != len(references):
        shorter = min(len(hypotheses), len(references))
        payload = {**payload, "hypotheses": hypotheses[:shorter], "references": references[:shorter]}
    output = oracle.execute(tool_id, version, payload)  # the oracle's validation of everything else
    r = sum(closest_ties_to_longer(len(h), refs) for h, refs in zip(payload["hypotheses"], payload["references"]))
    bp = brevity_penalty(output["candidate_length"], r)
    bleu = bleu_score(bp, output["matches"], output["totals"])
    if "decimals" in payload:
        bleu, bp = round_to_fixed(bleu, int(payload["decimals"])), round_to_fixed(bp, int(payload["decimals"]))
    return {**output, "reference_length": r, "brevity_penalty": bp, "bleu": bleu}
