"""Does not enforce max_segments (1000): validates each segment but not the segment count."""
import fastjsonschema

from independent import BleuCorpusCompute, BleuNgramsCount, Implementation
from independent.contract import contract
from independent.errors import Rejection


def _relaxed(tool_id):
    schema = contract(tool_id)["input_schema"]
    props = {k: ({kk: vv for kk, vv in v.items() if kk != "maxItems"} if k in ("hypotheses", "references") else v)
             for k, v in schema["properties"].items()}
    return fastjsonschema.compile({**schema, "properties": props})


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
