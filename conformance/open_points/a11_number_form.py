"""A11: number form in outputs, 1 or 1.0."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A11",
    title="Number form in outputs: 1 or 1.0",
    quotes=(
        Quote("output_schema", '"bleu":{"type":"number","minimum":0,"maximum":1}'),
        Quote("output_schema", '"max_order":{"type":"integer","minimum":1,"maximum":8}'),
    ),
    open="JSON does not distinguish 1, 1.0 and 1e0; a service may print an integral double either way, and "
    "JSON Schema counts 4.0 as an integer.",
    readings=("any JSON number form of the value",),
    oracle_reading="Python's json: integers without a fraction, floats in shortest round-trip form",
    avoidance="Numbers compare by value (1 == 1.0); a boolean is never a number.",
    applies=lambda tool: True,  # every output holds numbers
    compared_by="conformance/compare/diff.py",
)
