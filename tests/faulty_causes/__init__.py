"""Faulty implementations with several causes of failure each, for the failure groups (issue 13).

Unlike tests/mutants/ (one bug each), each module here has two unrelated causes, named in its
docstring, so that a run against it must show one failure group per cause:

    nltk_like   bleu-corpus-compute through NLTK itself: max(1, l_n) totals and a tiny positive BLEU
    two_bugs    bleu-corpus-compute with reference-length ties to the longer and zipped unequal segment lists

Every other answer is the oracle's, rounded where the input asks (so no third cause shows).
"""
