"""The largest request bodies (conformance/strategies/wire_sizes.py).

(a) Each tool's bound equals the hand computation below, from the contract file's limits and the
6 bytes of "\\u0001" for 1 UTF-8 byte, and one valid input reaches it exactly (so it is the true
maximum at those limits, not only an upper bound): one more token, byte or segment is refused.
(b) valid/largest-body draws, at the quick profile, inputs at >= 90 % of the bound, each answered by
the oracle, within the limits under A1's strict reading, and touching no open point.
(c) Servers answering as the oracle does but refusing bodies over a framework's default limit are
caught by `conformance run --families valid/largest-body`: 1 MiB (nginx and many proxies) on a BLEU
tool, 100 KiB (Express's json parser) on a chrF tool; a 1 MiB limit passes chrF, whose bodies stay
under 400 kB.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from faulty_wire_servers import EXPRESS_JSON_LIMIT, ONE_MIB, body_limit_server

import oracle
from conformance import open_points
from conformance.hypothesis_profiles import run_settings
from conformance.jsonio import encode_request
from conformance.strategies import aim_counts, draw_examples, families
from conformance.strategies.wire_sizes import NAME, REACHED, largest_body_bound
from oracle.registry import tool

ROOT = Path(__file__).resolve().parent.parent
VERSION = "1.0.0"
TOOLS = (
    "bleu-brevity-penalty",
    "bleu-corpus-compute",
    "bleu-ngrams-count",
    "bleu-sentence-components",
    "bleu-sentence-compute",
    "chrf-components",
    "chrf-compute",
    "chrf-plus-plus-compute",
)
ESCAPED = len(json.dumps("\x01")) - 2  # "\u0001": 6 bytes for 1 UTF-8 byte


def limits_of(tool_id: str) -> dict:
    return json.loads((ROOT / "contracts" / tool_id / f"{VERSION}.json").read_text(encoding="utf-8"))["limits"]


def member(text: str) -> int:
    """A member written out, e.g. '"max_order":8'."""
    return len(text)


# --- (a) the bound, by hand ----------------------------------------------------------------------


def by_hand() -> dict[str, int]:
    bounds = {}

    # BLEU tokens: T tokens holding B bytes, every byte a 6-byte control, 2 quotes a token, T - 1 commas
    # (all in one list). The totals count hypotheses and references together (A1, strict).
    def tokens(tool_id: str) -> int:
        limit = limits_of(tool_id)
        count, size = limit["max_total_tokens"], limit["max_total_token_bytes"]
        assert count <= size <= count * limit["max_token_bytes"]  # reachable: 1..128 bytes a token
        return ESCAPED * size + 2 * count + (count - 1)

    # bleu-sentence-components: {"hypothesis":[],"references":[[],[],[],[],[],[],[],[]],"max_order":8}
    refs = limits_of("bleu-sentence-components")["max_references_per_segment"]
    lists = member('"hypothesis":') + 2 + member('"references":') + 2 + refs * 2 + (refs - 1)
    structure = 2 + lists + member('"max_order":8') + 2
    assert structure == 70
    bounds["bleu-sentence-components"] = structure + tokens("bleu-sentence-components")

    # bleu-sentence-compute: the same, and every option at its longest
    refs = limits_of("bleu-sentence-compute")["max_references_per_segment"]
    lists = member('"hypothesis":') + 2 + member('"references":') + 2 + refs * 2 + (refs - 1)
    options = (
        member('"max_order":8')
        + member('"smoothing":"chen-cherry-1"')
        + member('"effective_order":false')
        + member('"decimals":15')
    )
    structure = 2 + lists + options + 5
    assert structure == 136
    bounds["bleu-sentence-compute"] = structure + tokens("bleu-sentence-compute")

    # bleu-corpus-compute: S hypothesis lists, S segments of R reference lists
    for tool_id, last_option in (
        ("bleu-corpus-compute", '"decimals":15'),
        ("bleu-ngrams-count", '"detail":"segments"'),
    ):
        limit = limits_of(tool_id)
        segments, refs = limit["max_segments"], limit["max_references_per_segment"]
        hypotheses = member('"hypotheses":') + 2 + segments * 2 + (segments - 1)
        references = member('"references":') + 2 + segments * (2 + refs * 2 + (refs - 1)) + (segments - 1)
        structure = 2 + hypotheses + references + member('"max_order":8') + member(last_option) + 3
        bounds[tool_id] = structure + tokens(tool_id)
    assert bounds["bleu-corpus-compute"] - tokens("bleu-corpus-compute") == 29_059

    # chrF: 2 x S empty texts, then max_text_bytes (all texts together) of 6-byte controls
    for tool_id, options in (
        ("chrf-compute", ['"beta":16', '"lowercase":false']),
        ("chrf-plus-plus-compute", ['"beta":16', '"lowercase":false']),
        (
            "chrf-components",
            ['"char_order":10', '"word_order":4', '"whitespace":false', '"beta":16', '"lowercase":false'],
        ),
    ):
        limit = limits_of(tool_id)
        segments = limit["max_segments"]
        texts = 2 * (member('"hypotheses":') + 2 + segments * 2 + (segments - 1))
        structure = 2 + texts + sum(map(member, options)) + (2 + len(options) - 1)
        bounds[tool_id] = structure + ESCAPED * limit["max_text_bytes"]

    # bleu-brevity-penalty: S candidate lengths and S x R reference lengths of 7 digits, "decimals":15
    limit = limits_of("bleu-brevity-penalty")
    segments, refs, digits = limit["max_segments"], limit["max_references_per_segment"], len(str(limit["max_length"]))
    candidates = member('"candidate_lengths":') + 2 + segments * digits + (segments - 1)
    references = member('"reference_lengths":') + 2 + segments * (2 + refs * digits + (refs - 1)) + (segments - 1)
    bounds["bleu-brevity-penalty"] = 2 + candidates + references + member('"decimals":15') + 2
    return bounds


def test_the_bound_of_every_tool_is_the_hand_computation():
    hand = by_hand()
    assert hand == {
        "bleu-brevity-penalty": 74_059,
        "bleu-corpus-compute": 6_470_514,
        "bleu-ngrams-count": 6_470_520,
        "bleu-sentence-components": 6_441_525,
        "bleu-sentence-compute": 6_441_591,
        "chrf-components": 394_861,
        "chrf-compute": 394_811,
        "chrf-plus-plus-compute": 394_811,
    }
    assert {tool_id: largest_body_bound(tool_id, VERSION) for tool_id in TOOLS} == hand


def test_no_character_costs_more_than_six_bytes_a_utf8_byte():
    """The costliest escape: ASCII holds it (non-ASCII is written raw), a C0 control without a short escape."""
    for cp in [*range(0x80), 0xA0, 0x2028, 0xFFFF, 0x10FFFF]:
        ch = chr(cp)
        written = len(encode_request(ch)) - 2
        assert written <= ESCAPED * len(ch.encode("utf-8")), hex(cp)
        if cp >= 0x80:
            assert written == len(ch.encode("utf-8"))
    assert [cp for cp in range(0x20) if len(encode_request(chr(cp))) - 2 < ESCAPED] == [8, 9, 10, 12, 13]


def witness(tool_id: str) -> dict:
    """One valid input whose compact body is the bound: every list at the limits, all the text in the
    first list (every token or text of 6-byte controls), every option at its longest spelling."""
    limit = limits_of(tool_id)
    if tool_id == "bleu-brevity-penalty":
        segments, refs = limit["max_segments"], limit["max_references_per_segment"]
        return {
            "candidate_lengths": [limit["max_length"]] * segments,
            "reference_lengths": [[limit["max_length"]] * refs] * segments,
            "decimals": 15,
        }
    if tool_id.startswith("chrf"):
        segments = limit["max_segments"]
        options = {"beta": 16, "lowercase": False}
        if tool_id == "chrf-components":
            options = {"char_order": 10, "word_order": 4, "whitespace": False, **options}
        texts = ["\x01" * limit["max_text_bytes"]] + [""] * (segments - 1)
        return {"hypotheses": texts, "references": [""] * segments, **options}
    count, size = limit["max_total_tokens"], limit["max_total_token_bytes"]
    longer = size - count * (size // count)  # tokens of size // count + 1 bytes, the others size // count
    tokens = ["\x02" * (size // count + 1)] * longer + ["\x03" * (size // count)] * (count - longer)
    refs = limit["max_references_per_segment"]
    if tool_id.startswith("bleu-sentence"):
        payload: dict = {"hypothesis": tokens, "references": [[]] * refs, "max_order": 8}
        if tool_id == "bleu-sentence-compute":
            payload.update(smoothing="chen-cherry-1", effective_order=False, decimals=15)
        return payload
    segments = limit["max_segments"]
    payload = {"hypotheses": [tokens] + [[]] * (segments - 1), "references": [[[]] * refs] * segments, "max_order": 8}
    payload.update({"decimals": 15} if tool_id == "bleu-corpus-compute" else {"detail": "segments"})
    return payload


def one_more(tool_id: str, payload: dict) -> list[dict]:
    """The witness with one more token, byte, text byte, segment or digit: each past a limit."""
    if tool_id == "bleu-brevity-penalty":
        return [
            {**payload, "candidate_lengths": [payload["candidate_lengths"][0] + 1] + payload["candidate_lengths"][1:]},
            {
                **payload,
                "candidate_lengths": payload["candidate_lengths"] + [0],
                "reference_lengths": payload["reference_lengths"] + [[0]],
            },
        ]
    if tool_id.startswith("chrf"):
        texts = payload["hypotheses"]
        return [
            {**payload, "hypotheses": [texts[0] + "\x01"] + texts[1:]},
            {**payload, "hypotheses": texts + [""], "references": payload["references"] + [""]},
        ]
    key = "hypothesis" if "hypothesis" in payload else "hypotheses"
    tokens = payload[key] if key == "hypothesis" else payload[key][0]
    more = [tokens + ["\x01"], [tokens[0] + "\x01"] + tokens[1:]]
    return [{**payload, key: t} if key == "hypothesis" else {**payload, key: [t] + payload[key][1:]} for t in more]


@pytest.mark.parametrize("tool_id", TOOLS)
def test_a_valid_input_reaches_the_bound_exactly_and_one_more_is_refused(tool_id):
    payload = witness(tool_id)
    assert len(encode_request(payload)) == largest_body_bound(tool_id, VERSION)
    oracle.execute(tool_id, VERSION, payload)
    assert open_points.depends_on(tool(tool_id, VERSION), payload) == []
    for larger in one_more(tool_id, payload):
        with pytest.raises(oracle.ContractError) as refused:
            oracle.execute(tool_id, VERSION, larger)
        assert refused.value.code == "limit_exceeded"


# --- (b) the family -------------------------------------------------------------------------------


def strict_totals_hold(tool_id: str, payload: dict) -> bool:
    """Within the limits, the BLEU totals counting hypotheses and references together (A1's strict reading)."""
    limit = limits_of(tool_id)
    if tool_id == "bleu-brevity-penalty":
        lengths = payload["candidate_lengths"] + [n for refs in payload["reference_lengths"] for n in refs]
        return max(lengths) <= limit["max_length"] and len(payload["candidate_lengths"]) <= limit["max_segments"]
    if tool_id.startswith("chrf"):
        texts = payload["hypotheses"] + payload["references"]
        return sum(len(t.encode("utf-8")) for t in texts) <= limit["max_text_bytes"]
    if "hypothesis" in payload:
        lists = [payload["hypothesis"], *payload["references"]]
    else:
        lists = [*payload["hypotheses"], *(r for refs in payload["references"] for r in refs)]
    tokens = [t for tokens in lists for t in tokens]
    sizes = [len(t.encode("utf-8")) for t in tokens]
    return (
        len(tokens) <= limit["max_total_tokens"]
        and sum(sizes) <= limit["max_total_token_bytes"]
        and max(sizes) <= limit["max_token_bytes"]
    )


@pytest.mark.parametrize("tool_id", TOOLS)
def test_the_family_draws_valid_inputs_at_90_percent_of_the_bound(tool_id):
    (family,) = [f for f in families(tool_id, VERSION) if f.name == NAME]
    assert family.category == "valid" and family.aims == (REACHED,)
    examples = family.settings(run_settings("quick", "valid")).max_examples
    assert examples <= 5  # a few: each is up to 6.5 MB
    bound = largest_body_bound(tool_id, VERSION)
    with aim_counts.counting() as counter:
        cases = draw_examples(family.strategy, examples, seed=1)
    assert counter.counts[REACHED] >= 1
    output_schema = oracle.contract(tool_id, VERSION).output_accepts
    for generated in cases:
        size = len(encode_request(generated.input))
        assert size >= 0.9 * bound, generated.description
        assert generated.description.startswith(f"compact body {size} bytes of the bound {bound} (")
        assert generated.expect.kind == "output"
        output_schema(oracle.execute(tool_id, VERSION, generated.input))  # valid, answered
        assert strict_totals_hold(tool_id, generated.input), generated.description
        assert open_points.depends_on(tool(tool_id, VERSION), generated.input) == [], generated.description
        if tool_id.startswith("chrf"):
            assert generated.input.get("lowercase") is not True  # A5: controls are outside the safe alphabet
        if tool_id == "bleu-ngrams-count":  # A2: within the output limit in the most verbose serialisation
            output = oracle.execute(tool_id, VERSION, generated.input)
            verbose = len(json.dumps({"result": output}, indent=4, ensure_ascii=True))
            assert generated.input.get("detail") != "ngrams" and verbose <= limits_of(tool_id)["max_output_bytes"]


def test_a_seed_fixes_the_cases():
    (family,) = [f for f in families("chrf-compute", VERSION) if f.name == NAME]
    first = draw_examples(family.strategy, 3, seed=7)
    assert first == draw_examples(family.strategy, 3, seed=7)
    assert first != draw_examples(family.strategy, 3, seed=8)


# --- (c) a server refusing large bodies is caught ---------------------------------------------------


def run_against(url: str, tool_id: str, seed: int, tmp_path: Path, monkeypatch, capfd) -> tuple[int, dict, str]:
    from conformance.cli import main

    monkeypatch.chdir(tmp_path)
    out = f"report-{tool_id}-{seed}"
    code = main(
        ["run", "--target", url, "--tools", tool_id, "--families", NAME, "--seed", str(seed), "--report-dir", out]
    )
    printed = "".join(capfd.readouterr())
    return code, json.loads((tmp_path / out / "report.json").read_text(encoding="utf-8")), printed


def assert_caught(code: int, report: dict, printed: str, tool_id: str, server, limit: int) -> None:
    assert code == 1, printed
    (entry,) = report["properties"]
    assert entry["id"] == f"generated/{tool_id}/{NAME}" and entry["outcome"] == "failed", printed
    assert "limit_exceeded" in entry["message"]
    assert server.refused and min(server.refused) > limit


@pytest.mark.parametrize(
    "seed",
    [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)],  # ~12 s each
)
def test_a_one_mib_body_limit_is_caught_on_bleu(seed, tmp_path, monkeypatch, capfd):
    with body_limit_server(ONE_MIB) as server:
        code, report, printed = run_against(server.url, "bleu-corpus-compute", seed, tmp_path, monkeypatch, capfd)
    assert_caught(code, report, printed, "bleu-corpus-compute", server, ONE_MIB)


@pytest.mark.slow  # Node.js (Express)
def test_an_express_body_limit_is_caught_on_chrf(tmp_path, monkeypatch, capfd):
    with body_limit_server(EXPRESS_JSON_LIMIT) as server:
        code, report, printed = run_against(server.url, "chrf-compute", 1, tmp_path, monkeypatch, capfd)
    assert_caught(code, report, printed, "chrf-compute", server, EXPRESS_JSON_LIMIT)


def test_a_one_mib_body_limit_passes_chrf(tmp_path, monkeypatch, capfd):
    """chrF's largest body is under 400 kB: the wrapper itself answers as the oracle does."""
    assert largest_body_bound("chrf-compute", VERSION) < ONE_MIB
    with body_limit_server(ONE_MIB) as server:
        code, report, printed = run_against(server.url, "chrf-compute", 1, tmp_path, monkeypatch, capfd)
    assert code == 0, printed
    assert not server.refused and max(server.answered) >= math.ceil(0.9 * largest_body_bound("chrf-compute", VERSION))
