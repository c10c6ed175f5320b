"""Every example published in a contract reproduces exactly with the oracle."""

import jsonschema
import pytest

import oracle

CASES = [
    pytest.param(tool_id, version, index, example, id=f"{tool_id}@{version}#{index}")
    for tool_id, version in oracle.available()
    for index, example in enumerate(oracle.load_contract(tool_id, version)["examples"])
]


@pytest.mark.parametrize("tool_id, version, index, example", CASES)
def test_contract_example_reproduces(tool_id, version, index, example):
    output = oracle.execute(tool_id, version, example["input"])
    assert output == example["output"]
    jsonschema.Draft202012Validator(oracle.load_contract(tool_id, version)["output_schema"]).validate(output)
