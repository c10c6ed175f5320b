"""Shared by the mutants whose only bug is a loosened BLEU input schema: not a mutant itself."""

import fastjsonschema
from independent import BleuCorpusCompute, BleuNgramsCount, Implementation
from independent.contract import contract
from independent.errors import Rejection


def bleu_with_relaxed_schema(relax):
    """The independent BLEU tools, validating against ``relax(input_schema)`` instead of the contract's."""
    compiled = {}

    class Relaxed:
        def validate(self, payload):
            if self.tool_id not in compiled:
                compiled[self.tool_id] = fastjsonschema.compile(relax(contract(self.tool_id)["input_schema"]))
            try:
                compiled[self.tool_id](payload)
            except fastjsonschema.JsonSchemaException as error:
                raise Rejection("invalid_input", error.message) from None
            self.check_segment_counts(payload)
            self.check_tokens(payload)

    class NgramsCount(Relaxed, BleuNgramsCount):
        pass

    class CorpusCompute(Relaxed, BleuCorpusCompute):
        pass

    return Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute
