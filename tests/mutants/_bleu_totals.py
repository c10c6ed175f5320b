"""Shared by the BLEU limit-form mutants: not a mutant itself."""

from independent.contract import utf8_bytes
from independent.errors import Rejection


class MeasuredTotals:
    """The independent BLEU tools' token checks, the totals measured over the hypotheses' token
    lists by ``total_tokens`` and ``total_bytes`` (a mutant swaps one for a wrong form)."""

    def total_tokens(self, lists):
        return sum(map(len, lists))

    def total_bytes(self, lists):
        return sum(utf8_bytes(token) for tokens in lists for token in tokens)

    def check_tokens(self, payload):
        limits = self.limits()
        every_token = [t for h in payload["hypotheses"] for t in h]
        every_token += [t for refs in payload["references"][: len(payload["hypotheses"])] for r in refs for t in r]
        if any(self.token_size(token) > limits["max_token_bytes"] for token in every_token):
            raise Rejection("limit_exceeded", "a token is longer than max_token_bytes")
        if self.total_tokens(payload["hypotheses"]) > limits["max_total_tokens"]:
            raise Rejection("limit_exceeded", "too many tokens")
        if self.total_bytes(payload["hypotheses"]) > limits["max_total_token_bytes"]:
            raise Rejection("limit_exceeded", "too many token bytes")
