"""Validates types only: accepts max_order 9 (or 0), empty-string tokens and 9 references per segment."""
import fastjsonschema

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation
from independent.contract import contract
from independent.errors import Rejection

BOUNDS = ("minimum", "maximum", "minLength", "maxLength")


def _without_bounds(schema):
    if isinstance(schema, dict):
        return {k: _without_bounds(v) for k, v in schema.items()
                if k not in BOUNDS and not (k == "maxItems" and v == 8)}
    return schema


def _relaxed(tool_id):
    return fastjsonschema.compile(_without_bounds(contract(tool_id)["input_schema"]))


class Relaxed:
    def validate(self, payload):
        try:
            _relaxed(self.tool_id)(payload)
        except fastjsonschema.JsonSchemaException as error:
            raise Rejection("invalid_input", error.message) from None
        self.check_segment_counts(payload)
        self.check_tokens(payload)


class NgramsCount(Relaxed, BleuNgramsCount):
    pass


class CorpusCompute(Relaxed, BleuCorpusCompute):
    pass


execute = Implementation(ngrams_count=NgramsCount(), corpus_compute=CorpusCompute()).execute
