"""bleu-corpus-compute as NLTK 3.9 computes it, two causes:

1. totals from ``modified_precision``'s denominators, max(1, count) per segment: a hypothesis shorter
   than n adds 1 to l_n (the contract: 0);
2. bleu from ``corpus_bleu`` with its default method0 smoothing: a zero precision becomes the smallest
   positive double, so the score is tiny and positive where the contract says exactly 0.

Everything else (validation, counts, lengths, brevity penalty, decimals) is the oracle's.
"""

import warnings

import oracle
from oracle.jsnumber import round_to_fixed


def execute(tool_id, version, payload):
    output = oracle.execute(tool_id, version, payload)
    from nltk.translate.bleu_score import corpus_bleu, modified_precision

    n = output["max_order"]
    pairs = list(zip(payload["hypotheses"], payload["references"]))
    output["totals"] = [sum(modified_precision(refs, hyp, k).denominator for hyp, refs in pairs)
                        for k in range(1, n + 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bleu = corpus_bleu(payload["references"], payload["hypotheses"], weights=(1 / n,) * n)
    output["bleu"] = round_to_fixed(bleu, int(payload["decimals"])) if "decimals" in payload else bleu
    return output
