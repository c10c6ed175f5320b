"""A12: the hosted service's error body and status codes are not published."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A12",
    title="The hosted service's error body and status codes are not published",
    quotes=(Quote("execute_url", "/versions/1.0.0/execute"),),
    open="The contracts give the execute URL and the output of a success only. The error body shape "
    '({"error": {"code"}}, {"error": "code"}, {"code"}) and the HTTP status of a rejection (400, '
    "413, 422) are unpublished.",
    readings=("any 4xx status with any body",),
    oracle_reading='{"error": {"code", "message"}} with 400 invalid_input, 413 limit_exceeded, '
    "404 not_found (this project's server)",
    avoidance="A rejection is any 4xx (or an error body from a command or module target). Its code is read from "
    "the common body shapes only, never guessed from the status, and checked only where the contract "
    "names it; a rejection without a readable code passes. A 5xx never passes.",
    compared_by="conformance/compare/verdict.py",
)
