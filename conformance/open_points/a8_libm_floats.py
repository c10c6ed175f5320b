"""A8: full-precision floats depend on the libm."""

from conformance.open_points.model import OpenPoint, Quote

POINT = OpenPoint(
    id="A8",
    title="Full-precision floats depend on the libm",
    quotes=(
        Quote("semantics", "bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n))"),
        Quote("semantics", "omitted means full IEEE-754 double precision"),
    ),
    open="exp and log are not correctly rounded in every libm (glibc, fdlibm in V8, musl, the CRT differ in the "
    "last bits), and (1/N)*s and s/N differ by an ulp; the contract fixes the formula, not the bits.",
    readings=("any libm whose exp and log err by a few ulps", "(1/N)*s or s/N"),
    oracle_reading="Python's math.exp / math.log, (1/N)*s, summed in order n = 1..N",
    avoidance="Full-precision bleu and brevity_penalty compare within a tolerance from a forward error analysis "
    "(conformance/compare/floats.py); values the contract makes exactly 0 or 1 compare exactly; a "
    "decimals-rounded value within that tolerance of a toFixed boundary may be either neighbour.",
    applies=lambda tool: bool(tool.float_fields),
    compared_by="conformance/compare/floats.py",
)
