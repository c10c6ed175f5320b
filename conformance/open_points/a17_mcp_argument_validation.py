"""A17: whether an MCP server may refuse execute's arguments itself, before the tool runs, is not said."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A17",
    title="An MCP server's own refusal of execute's arguments (its declared input schema) is not covered",
    quotes=(Quote("execute_url", "/execute"),),
    open="The contracts say nothing about MCP argument validation. An MCP server declares an inputSchema for "
    "execute in tools/list, and its SDK may check the arguments against it before the tool runs: the "
    'TypeScript SDK (1.x) refuses a violation itself with isError: true and plain text ("MCP error -32602: '
    "Input validation error: ...\"), not the contract's error body; older SDKs answered the same refusal "
    "with a JSON-RPC error -32602. With the schema zod gives {id, version, input} (input an object), an "
    "input that is an array, a string or null never reaches the tool.",
    readings=(
        "the tool answers every input with the contract's error body (the schema declares input as any "
        "value, or the server does not check it)",
        "the server's MCP layer refuses arguments that break its declared inputSchema, with isError and "
        "plain text (or a JSON-RPC error), naming no error code",
    ),
    oracle_reading="the first: `conformance serve` declares input as any value and answers every input with the "
    'error body {"error": {"code", "message"}}',
    avoidance="The MCP target reads tools/list once and keeps execute's inputSchema (JSON Schema draft-07 or "
    "2020-12; an unknown $schema or an invalid schema is no schema). isError without an error body, to "
    "arguments that break the declared schema, is a rejection refused by the server's MCP input schema: "
    "it satisfies a case expecting a rejection, its code not compared (as for a JSON-RPC error, A16, "
    "which is the same refusal from older SDKs; an input that is not an object is never a limit case, "
    "and a schema narrow enough to refuse an object rejects only what the contract rejects, or the "
    "valid-input cases fail), and fails a case expecting an output (the declared schema is narrower "
    "than the contract's). To arguments that satisfy the declared schema, or with no usable schema "
    "declared, it is a failure (a rejection without the contract's error body), never a transport "
    "error.",
    compared_by="conformance/targets/mcp.py",
)
