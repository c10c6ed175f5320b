"""The ambiguity catalogue: every open point of the contracts, as data.

Each entry quotes the contract text it is about (tests check the quote is verbatim), says
what the text leaves open, lists the reasonable readings, and says how the suite avoids
deciding between them and which reading the oracle implements. ``reports/ambiguities.md``
is generated from this list (``python -m conformance.ambiguities``; a test fails when the
committed file is stale), never edited by hand.

conformance.readings holds the code side: ``depends_on_open_point`` recognises the inputs
an entry is about, ``behaviours`` computes the other readings the comparison accepts.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

BLEU = ("bleu-ngrams-count@1.0.0", "bleu-corpus-compute@1.0.0")
NGRAMS = ("bleu-ngrams-count@1.0.0",)
CORPUS = ("bleu-corpus-compute@1.0.0",)
CHRF = ("chrf-plus-plus-compute@1.0.0",)
ALL = BLEU + CHRF

REPORT_PATH = Path(__file__).resolve().parent.parent / "reports" / "ambiguities.md"


@dataclass(frozen=True)
class Quote:
    """Verbatim text of a contract: ``where`` is "semantics", "limits", "input_schema",
    "output_schema" or "execute_url"; ``text`` appears there (JSON parts in compact form)."""

    contracts: tuple[str, ...]
    where: str
    text: str


@dataclass(frozen=True)
class Ambiguity:
    id: str
    title: str
    quotes: tuple[Quote, ...]
    open: str  # what the text leaves open
    readings: tuple[str, ...]  # the reasonable readings, the oracle's first
    oracle_reading: str
    avoidance: str  # how the suite avoids deciding it
    detected: bool = False  # readings.depends_on_open_point recognises inputs touching it
    compared: bool = False  # the comparison computes and accepts the other readings
    applies_to: tuple[str, ...] = ()  # the contracts it is open in; default: every quoted one

    @property
    def contracts(self) -> tuple[str, ...]:
        if self.applies_to:
            return self.applies_to
        seen: list[str] = []
        for quote in self.quotes:
            seen += [c for c in quote.contracts if c not in seen]
        return tuple(seen)


CATALOGUE: tuple[Ambiguity, ...] = (
    Ambiguity(
        id="A1",
        title="Do the total token limits count reference tokens?",
        quotes=(Quote(BLEU, "limits", '"max_total_tokens":50000'),
                Quote(BLEU, "limits", '"max_total_token_bytes":1048576')),
        open="The limits name a total of tokens and of token bytes but not which tokens: the hypotheses only, "
             "or hypotheses and references together.",
        readings=("hypothesis and reference tokens together", "hypothesis tokens only"),
        oracle_reading="hypothesis and reference tokens together (the stricter reading)",
        avoidance="Cases stay where every reading agrees: the hypothesis tokens alone exceed the limit (all reject) "
                  "or hypotheses plus references are within it (all accept). depends_on_open_point flags the band "
                  "between; there the comparison accepts either reading's answer or rejection.",
        detected=True, compared=True,
    ),
    Ambiguity(
        id="A2",
        title="Which JSON serialisation does the output-size limit measure?",
        quotes=(Quote(NGRAMS, "semantics", "Output larger than 1,000,000 UTF-8 bytes of JSON is limit_exceeded"),),
        open="JSON text of one value has many sizes: compact or indented, non-ASCII raw or \\u-escaped, with or "
             "without the hosted API's {\"result\": ...} envelope.",
        readings=("compact JSON.stringify form, non-ASCII raw, no envelope",
                  "with the {\"result\": ...} envelope",
                  "Python's default json.dumps (\", \" and \": \", non-ASCII \\u-escaped)",
                  "indented (2 or 4 spaces)"),
        oracle_reading="compact JSON.stringify form, non-ASCII raw, no envelope (the smallest)",
        avoidance="Cases produce outputs whose most verbose reasonable serialisation (indented, \\u-escaped, in the "
                  "envelope) is at most 1,000,000 bytes (all accept) or whose compact form exceeds it (all reject). "
                  "depends_on_open_point flags outputs between; there the comparison accepts the answer or "
                  "limit_exceeded.",
        detected=True, compared=True,
    ),
    Ambiguity(
        id="A3",
        title="Lone surrogates in BLEU tokens",
        quotes=(Quote(CORPUS, "semantics", "Tokens are compared by exact string equality"),
                Quote(NGRAMS, "semantics", "tokens are compared by exact string equality"),
                Quote(BLEU, "input_schema", '"items":{"type":"string","minLength":1,"maxLength":128}')),
        open="A JSON string may hold an unpaired \\ud800-\\udfff escape. The BLEU contracts neither reject it (as "
             "chrF++ states it does) nor say how its UTF-8 bytes count.",
        readings=("reject as invalid_input", "accept and compare the code unit sequences"),
        oracle_reading="reject as invalid_input, like chrF++",
        avoidance="No case sends a lone surrogate to a BLEU tool; if one does, a rejection and the answer of the "
                  "accepting reading both pass.",
        detected=True, compared=True,
    ),
    Ambiguity(
        id="A4",
        title="chrF++ corpus sums when a segment's reference lacks an order",
        quotes=(Quote(CHRF, "semantics", "Corpus score sums per-order counts over all segments"),),
        open="Read literally every hypothesis n-gram enters the corpus sums. sacreBLEU (CHRF._get_match_statistics) "
             "and chrF++.py drop a segment's hypothesis n-grams of an order its reference has none of. The corpus "
             "score differs when a corpus of two or more segments has a segment whose reference lacks an order its "
             "hypothesis has while another segment has that order on both sides.",
        readings=("sum every hypothesis n-gram (the contract's words)",
                  "drop a segment's hypothesis n-grams of an order its reference lacks (sacreBLEU, chrF++.py)"),
        oracle_reading="sum every hypothesis n-gram",
        avoidance="The comparison computes both (readings.behaviours) and accepts either score and score_fraction; "
                  "segment_scores and word_tokens agree under both. Cases may touch it.",
        detected=True, compared=True,
    ),
    Ambiguity(
        id="A5",
        title="toLowerCase follows the runtime's Unicode version",
        quotes=(Quote(CHRF, "semantics",
                      "true applies String.prototype.toLowerCase (runtime Unicode default case mapping)"),),
        open="Lowercase mappings and the Cased / Case_Ignorable properties behind Final_Sigma change between "
             "Unicode versions: Python 3.11 has Unicode 14, current JavaScript engines 15 to 17.",
        readings=("the oracle's Unicode version (14.0)", "any later version a JavaScript runtime ships"),
        oracle_reading="Python's str.lower (full default case mapping with Final_Sigma, Unicode 14.0)",
        avoidance="With lowercase true no case contains a code point of oracle/data/lowercase_unicode_differences."
                  "json (measured against Node.js) or one unassigned in Unicode 14.",
        detected=True,
    ),
    Ambiguity(
        id="A6",
        title="Error code when a violation is both a schema rule and a named limit",
        quotes=(Quote(BLEU, "input_schema", '"minItems":1,"maxItems":1000'),
                Quote(BLEU, "limits", '"max_segments":1000'),
                Quote(BLEU, "input_schema", '"minItems":1,"maxItems":8'),
                Quote(BLEU, "limits", '"max_references_per_segment":8'),
                Quote(BLEU, "limits", '"max_token_bytes":128'),
                Quote(CHRF, "input_schema", '"minItems":1,"maxItems":256'),
                Quote(CHRF, "limits", '"max_segments":256')),
        open="1001 segments, 9 references or a token over 128 code points break a schema rule (invalid_input) and "
             "a named limit (limit_exceeded) at once; the contracts do not say which code wins.",
        readings=("limit_exceeded", "invalid_input"),
        oracle_reading="limit_exceeded",
        avoidance="Such cases expect any rejection (\"any\"); the comparison accepts both codes.",
        compared=True,
    ),
    Ambiguity(
        id="A7",
        title="The BLEU tools state no validation order",
        quotes=(Quote(CHRF, "semantics", "Validation order: plain object, unknown keys, missing keys"),),
        open="chrF++ fixes the order of its checks; the BLEU contracts do not, so an input breaking two rules may "
             "get the code of either.",
        readings=("any order of the checks",),
        oracle_reading="schema (property by property), equal segment counts, lone surrogates, token limits",
        avoidance="Generated invalid inputs break exactly one rule. For the BLEU tools the comparison accepts the "
                  "code of any rule the input breaks (readings.acceptable_error_codes).",
        compared=True, applies_to=BLEU,
    ),
    Ambiguity(
        id="A8",
        title="Full-precision floats depend on the libm",
        quotes=(Quote(CORPUS, "semantics", "bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n))"),
                Quote(CORPUS, "semantics", "omitted means full IEEE-754 double precision")),
        open="exp and log are not correctly rounded in every libm (glibc, fdlibm in V8, musl, the CRT differ in the "
             "last bits), and (1/N)*s and s/N differ by an ulp; the contract fixes the formula, not the bits.",
        readings=("any libm whose exp and log err by a few ulps", "(1/N)*s or s/N"),
        oracle_reading="Python's math.exp / math.log, (1/N)*s, summed in order n = 1..N",
        avoidance="Full-precision bleu and brevity_penalty compare within a tolerance from a forward error analysis "
                  "(conformance/compare.py); values the contract makes exactly 0 or 1 compare exactly; a decimals-"
                  "rounded value within that tolerance of a toFixed boundary may be either neighbour.",
        compared=True,
    ),
    Ambiguity(
        id="A9",
        title="Is 4.0 an integer?",
        quotes=(Quote(BLEU, "input_schema", '"max_order":{"type":"integer","minimum":1,"maximum":8}'),
                Quote(CORPUS, "input_schema", '"decimals":{"type":"integer","minimum":0,"maximum":15}'),
                Quote(CHRF, "input_schema", '"beta":{"type":"integer","minimum":1,"maximum":16}')),
        open="JSON Schema 2020-12 counts a number with a zero fraction (4.0, 4e0) as an integer and a JavaScript "
             "service cannot tell it from 4; a strictly typed parser (serde, Jackson, Go) rejects it.",
        readings=("accept 4.0 as 4", "reject it as invalid_input"),
        oracle_reading="accept 4.0 as 4 (JSON Schema's rule)",
        avoidance="No case writes an integer field with a fraction or exponent; if one does, both readings pass.",
        detected=True, compared=True,
    ),
    Ambiguity(
        id="A10",
        title="The BLEU tools never state equal segment counts",
        quotes=(Quote(CORPUS, "semantics", "hypotheses[i] is the token list of segment i and references[i] lists 1 "
                                           "to 8 reference token lists for it"),
                Quote(CHRF, "semantics", "equal segment counts")),
        open="chrF++ lists \"equal segment counts\" among its checks; the BLEU contracts only pair references[i] "
             "with hypotheses[i]. A hypothesis without references cannot be scored (every reading rejects), but "
             "reference sets beyond the last hypothesis could be ignored.",
        readings=("reject any difference as invalid_input", "ignore reference sets beyond the hypotheses"),
        oracle_reading="reject any difference as invalid_input",
        avoidance="Unequal-count cases have more hypotheses than reference sets (every reading rejects). "
                  "depends_on_open_point flags more reference sets than hypotheses; there the comparison accepts "
                  "either a rejection or the answer on the first len(hypotheses) reference sets.",
        detected=True, compared=True, applies_to=BLEU,
    ),
    Ambiguity(
        id="A11",
        title="Number form in outputs: 1 or 1.0",
        quotes=(Quote(CORPUS, "output_schema", '"bleu":{"type":"number","minimum":0,"maximum":1}'),
                Quote(BLEU, "output_schema", '"max_order":{"type":"integer","minimum":1,"maximum":8}')),
        open="JSON does not distinguish 1, 1.0 and 1e0; a service may print an integral double either way, and "
             "JSON Schema counts 4.0 as an integer.",
        readings=("any JSON number form of the value",),
        oracle_reading="Python's json: integers without a fraction, floats in shortest round-trip form",
        avoidance="Numbers compare by value (1 == 1.0); a boolean is never a number.",
        compared=True,
    ),
    Ambiguity(
        id="A12",
        title="The hosted service's error body and status codes are not published",
        quotes=(Quote(ALL, "execute_url", "/versions/1.0.0/execute"),),
        open="The contracts give the execute URL and the output of a success only. The error body shape ({\"error\": {\"code\"}}, "
             "{\"error\": \"code\"}, {\"code\"}) and the HTTP status of a rejection (400, 413, 422) are unpublished.",
        readings=("any 4xx status with any body",),
        oracle_reading="{\"error\": {\"code\", \"message\"}} with 400 invalid_input, 413 limit_exceeded, "
                       "404 not_found (this project's server)",
        avoidance="A rejection is any 4xx (or an error body from a command or module target). Its code is read from "
                  "the common body shapes only, never guessed from the status, and checked only where the contract "
                  "names it; a rejection without a readable code passes. A 5xx never passes.",
        compared=True,
    ),
    Ambiguity(
        id="A13",
        title="chrF++ \"a word of one code point\" measured in UTF-16 units",
        quotes=(Quote(CHRF, "semantics", "a word of one code point is kept"),),
        open="A JavaScript implementation may test word.length === 1, which counts UTF-16 units, so a single "
             "astral character has length 2.",
        readings=("one code point", "one UTF-16 unit"),
        oracle_reading="one code point",
        avoidance="Nothing to avoid: no input tells them apart. A one-code-point word that is astral fails the "
                  "length test in UTF-16 and goes on to the punctuation tests, which never match its surrogate "
                  "halves, so it is kept whole under both readings. (Character n-grams are stated to be code points; "
                  "taking them over UTF-16 units is a bug the suite catches.)",
    ),
    Ambiguity(
        id="A14",
        title="chrF++: UTF-8 bytes of a text holding a lone surrogate",
        quotes=(Quote(CHRF, "semantics", "total UTF-8 bytes of all texts at most 65536, lone surrogates"),),
        open="The byte limit is checked before lone surrogates, but a lone surrogate has no UTF-8 encoding: counted "
             "as 3 bytes (WTF-8, or its U+FFFD replacement) or not at all, the first failing check may differ.",
        readings=("3 bytes per lone surrogate", "0 bytes (dropped before measuring)"),
        oracle_reading="3 bytes",
        avoidance="Lone-surrogate cases stay far below the byte limit; where the count decides between the two "
                  "checks, the comparison accepts invalid_input and limit_exceeded.",
        detected=True, compared=True,
    ),
    Ambiguity(
        id="A15",
        title="Duplicate keys and non-JSON numbers in a request body",
        quotes=(Quote(ALL, "input_schema", '"type":"object","additionalProperties":false'),),
        open="The input is a JSON object, but JSON parsers differ on duplicate keys (JavaScript keeps the last, "
             "others the first or reject) and on NaN, Infinity or 1e400.",
        readings=("reject", "keep the last duplicate", "keep the first duplicate"),
        oracle_reading="reject as invalid_input (conformance.jsonio)",
        avoidance="No case sends duplicate keys, NaN, Infinity or a number beyond a double's range.",
    ),
)

BY_ID = {entry.id: entry for entry in CATALOGUE}


# --- the generated report ---------------------------------------------------------------


def _quote_lines(entry: Ambiguity) -> list[str]:
    return [f"- {', '.join(quote.contracts)}, {quote.where}: `{quote.text}`" for quote in entry.quotes]


def render() -> str:
    lines = [
        "# Ambiguity catalogue",
        "",
        "<!-- Generated by `python -m conformance.ambiguities` from conformance/ambiguities.py. Do not edit. -->",
        "",
        "Open points of the published contracts: what each text leaves open, the reasonable readings, and how",
        "the suite avoids deciding between them. A correct implementation that chose another reading passes.",
        "`conformance.readings.depends_on_open_point` recognises the inputs an entry marked *detected* is about;",
        "for entries marked *compared* the comparison computes and accepts every reading.",
        "",
        "| id | open point | contracts | detected | compared |",
        "|---|---|---|---|---|",
    ]
    for entry in CATALOGUE:
        tools = ", ".join(c.split("@")[0] for c in entry.contracts)
        lines.append(f"| [{entry.id}](#{entry.id.lower()}) | {entry.title} | {tools} | "
                     f"{'yes' if entry.detected else '-'} | {'yes' if entry.compared else '-'} |")
    for entry in CATALOGUE:
        lines += ["", f"## {entry.id}", "", f"**{entry.title}**", "", "Contract text:", "", *_quote_lines(entry), "",
                  f"What is open: {entry.open}", "", "Readings:", ""]
        lines += [f"{i}. {reading}" for i, reading in enumerate(entry.readings, 1)]
        lines += ["", f"The oracle implements: {entry.oracle_reading}.", "", f"How the suite avoids deciding: "
                  f"{entry.avoidance}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.ambiguities",
                                     description="Write reports/ambiguities.md from the catalogue.")
    parser.add_argument("--output", type=Path, default=REPORT_PATH)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs from the catalogue")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.is_file() else ""
        if current != text:
            print(f"{args.output} is stale: run python -m conformance.ambiguities", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
