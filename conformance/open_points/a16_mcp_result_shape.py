"""A16: where the hosted service's MCP tool ``execute`` puts its answer is not published."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A16",
    title="The result shape of the hosted service's MCP tool execute is not published",
    quotes=(Quote("execute_url", "/execute"),),
    open="The contracts give the HTTP execute URL only; the service's page adds an MCP interface (call the tool "
    'execute with {"id", "version", "input"}) without saying where the answer is in the tool result: '
    "as structuredContent, as the JSON of a text content block, or both; nor how a rejection looks there "
    "(isError with an error body, or a JSON-RPC error).",
    readings=(
        'the envelope {"result": ...} or the error body in structuredContent',
        "the same envelope as the JSON of the text content (several text blocks: their concatenation)",
        "a rejection as a JSON-RPC error, which names no error code",
    ),
    oracle_reading="both: the envelope as structuredContent and as the text content; a rejection is isError with "
    'the error body {"error": {"code", "message"}} (this project\'s server, at /mcp)',
    avoidance="The MCP target reads structuredContent when present, else the JSON of the text content; isError "
    "with an error body is a rejection whose code is read as for HTTP, a JSON-RPC error a rejection "
    "without a code (which passes wherever the contract names no code). A server using either shape "
    "passes; isError without an error body is read by A17; any other tool result is a transport error, "
    "never a wrong answer.",
    compared_by="conformance/targets/mcp.py",
)
