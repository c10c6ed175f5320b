"""A15: duplicate keys and non-JSON numbers in a request body."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A15",
    title="Duplicate keys and non-JSON numbers in a request body",
    quotes=(Quote("input_schema", '"type":"object","additionalProperties":false'),),
    open="The input is a JSON object, but JSON parsers differ on duplicate keys (JavaScript keeps the last, "
    "others the first or reject) and on NaN, Infinity or 1e400.",
    readings=("reject", "keep the last duplicate", "keep the first duplicate"),
    oracle_reading="reject as invalid_input (conformance.jsonio), on both routes of `conformance serve`: at /mcp "
    "the raw body is checked before the MCP SDK's parser, which would keep the last duplicate",
    avoidance="No case sends duplicate keys, NaN, Infinity or a number beyond a double's range.",
)
