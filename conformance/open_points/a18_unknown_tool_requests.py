"""A18: how a target answers a request for a tool or version no contract defines is not said."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A18",
    title="A request naming a tool or version that no contract defines is outside every contract",
    quotes=(Quote("execute_url", "/v1/tools/"),),
    open="Each contract determines the answers of its own tool at its own version, and nothing else. A request "
    "for another tool id or version (\"no-such-tool\", \"9.9.9\", or an id holding '/' or '..') is outside all "
    "of them: the contracts do not say it must be refused, nor how. A target written for one tool may "
    "dispatch on the tool id alone, ignore the version (every contract is 1.0.0), or fail however its "
    "language fails on an unknown key.",
    readings=(
        "refused as not found (this project's oracle, server and command line: not_found, HTTP 404)",
        "refused otherwise, or answered as the tool's one version (a target that ignores the version)",
    ),
    oracle_reading="oracle.execute raises ContractError(not_found) for a tool id or version without a contract, or "
    "with '/' or a leading '.' (never a path outside contracts/); `conformance serve` answers 404 "
    "not_found over HTTP and the error body over MCP; `conformance exec` prints the error body, exit 1",
    avoidance="The suite sends a target no request for a tool or version the run does not judge, except the "
    "preflight's question of each draft tool with its own contract example, where only 'not found' "
    "counts (the draft is then not served) and any other answer means served. The project's own tests "
    "(tests/test_architecture.py, tests/test_server.py, tests/test_server_mcp.py) hold its oracle and server "
    "to not_found for unknown and path-like tools.",
    compared_by="conformance/engine/health.py",
)
