"""The HTTP target against well-behaved and deliberately faulty local servers.

What each test holds the target to: classify what came back (result / rejection /
transport_error) with a clear detail and a truncated excerpt, never raise, never
read past the size cap, never wait past the deadline, and retry only transport
failures, a bounded number of times, counting them.
"""

from __future__ import annotations

import subprocess
import time
import tracemalloc

import pytest
from faulty_servers import faulty_server, refused_url, shared_oracle_server

from conformance.targets.http import HttpTarget, classify

TOOL, VERSION = "bleu-corpus-compute", "1.0.0"
# Contract example arithmetic: hypothesis == reference, 4 tokens -> every order matches fully, bleu 1.
PAYLOAD = {"hypotheses": [["the", "cat", "sat", "down"]], "references": [[["the", "cat", "sat", "down"]]]}
EXPECTED = {
    "bleu": 1.0,
    "brevity_penalty": 1.0,
    "candidate_length": 4,
    "reference_length": 4,
    "max_order": 4,
    "matches": [4, 3, 2, 1],
    "totals": [4, 3, 2, 1],
}


@pytest.fixture(scope="module")
def served():
    return shared_oracle_server()[0]


# --- against the real server -----------------------------------------------------------------


def test_answer_is_a_result(served):
    target = HttpTarget(served)
    response = target.call(TOOL, VERSION, PAYLOAD)
    target.close()
    assert (response.kind, response.status, response.retries) == ("result", 200, 0)
    assert response.result == EXPECTED


@pytest.mark.parametrize(
    "payload, status, code",
    [
        ({"hypotheses": [["a"]]}, 400, "invalid_input"),  # references missing
        ({"hypotheses": [["a"]] * 1001, "references": [[["a"]]] * 1001}, None, None),  # over max_segments: A6
    ],
)
def test_rejection_reads_the_code(served, payload, status, code):
    response = HttpTarget(served).call(TOOL, VERSION, payload)
    assert response.kind == "rejection" and response.retries == 0
    if status:
        assert (response.status, response.error_code) == (status, code)
    else:  # A6: schema maxItems and max_segments both apply; either code is right
        assert (response.status, response.error_code) in {(400, "invalid_input"), (413, "limit_exceeded")}


def test_unknown_tool_is_a_rejection_not_found(served):
    response = HttpTarget(served).call("no-such-tool", "1.0.0", PAYLOAD)
    assert (response.kind, response.status, response.error_code) == ("rejection", 404, "not_found")


def test_lone_surrogate_is_sent_as_an_escape_and_rejected(served):
    # chrF++ validation order names lone surrogates; "\ud800" cannot be UTF-8, only a JSON escape.
    response = HttpTarget(served).call(
        "chrf-plus-plus-compute", "1.0.0", {"hypotheses": ["a\ud800"], "references": ["a"]}
    )
    assert (response.kind, response.status, response.error_code) == ("rejection", 400, "invalid_input")


def test_non_ascii_travels_as_utf8(served):
    # chrF++ segment of identical texts scores 100 (P = R = 1 on every order present).
    text = "naïve café ünïcödé 𝄞"
    response = HttpTarget(served).call("chrf-plus-plus-compute", "1.0.0", {"hypotheses": [text], "references": [text]})
    assert response.kind == "result"
    assert response.result["score"] == "100.000000"
    assert response.result["word_tokens"] == [{"hypothesis": text.split(), "reference": text.split()}]


def test_connections_are_reused(served):
    target = HttpTarget(served)
    for _ in range(5):
        assert target.call(TOOL, VERSION, PAYLOAD).kind == "result"
    pool = next(iter(target.session.adapters["http://"].poolmanager.pools._container.values()))
    assert pool.num_connections == 1  # one TCP connection served all five calls
    target.close()


def test_curl_reproducer_replays_the_call(served):
    hint = HttpTarget(served).reproduce_hint(TOOL, VERSION, PAYLOAD)
    assert hint.startswith("curl ") and "\n" not in hint
    out = subprocess.run(hint, shell=True, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert '"bleu":1.0' in out.stdout


# --- against faulty servers ------------------------------------------------------------------


def test_every_request_500_is_a_transport_error_not_retried():
    with faulty_server("always_500") as server:
        response = HttpTarget(server.url, retries=2).call(TOOL, VERSION, PAYLOAD)
        assert server.requests_seen == 1  # a 500 is a bug, not a hiccup
    assert (response.kind, response.status, response.retries) == ("transport_error", 500, 0)
    assert "HTTP 500" in response.detail and "boom" in response.raw


def test_every_third_503_is_retried_and_counted():
    with faulty_server("every_third_503") as server:
        target = HttpTarget(server.url, retries=2)
        responses = [target.call(TOOL, VERSION, PAYLOAD) for _ in range(4)]
        target.close()
        # requests 1, 2 answer; 3 is a 503, retried as 4; call four is request 5
        assert server.requests_seen == 5
    assert [r.kind for r in responses] == ["result"] * 4
    assert [r.retries for r in responses] == [0, 0, 1, 0]
    assert all(r.result == EXPECTED for r in responses)


def test_503_without_retries_is_a_transport_error():
    with faulty_server("every_third_503") as server:
        target = HttpTarget(server.url, retries=0)
        responses = [target.call(TOOL, VERSION, PAYLOAD) for _ in range(3)]
    assert [r.kind for r in responses] == ["result", "result", "transport_error"]
    assert responses[2].status == 503 and "Service Unavailable" in responses[2].raw


def test_slow_server_times_out_and_retries_are_bounded():
    with faulty_server("slow") as server:
        started = time.monotonic()
        response = HttpTarget(server.url, timeout=0.5, retries=1).call(TOOL, VERSION, PAYLOAD)
        elapsed = time.monotonic() - started
        assert server.requests_seen == 2
    assert (response.kind, response.retries) == ("transport_error", 1)
    assert "within 0.5 s" in response.detail
    assert elapsed < 5  # two 0.5 s attempts (urllib3 waits 0 s before a first retry), not the server's 20 s


def test_trickling_body_is_cut_at_the_deadline():
    with faulty_server("trickle") as server:
        started = time.monotonic()
        response = HttpTarget(server.url, timeout=1.0, retries=0).call(TOOL, VERSION, PAYLOAD)
        elapsed = time.monotonic() - started
    assert response.kind == "transport_error" and "not complete within 1 s" in response.detail
    assert elapsed < 3  # each byte comes within the read timeout; only the deadline stops it


def test_trickling_headers_are_cut_at_the_deadline():
    with faulty_server("trickle_headers") as server:
        started = time.monotonic()
        response = HttpTarget(server.url, timeout=1.0, retries=0).call(TOOL, VERSION, PAYLOAD)
        elapsed = time.monotonic() - started
    assert response.kind == "transport_error" and "within 1 s" in response.detail
    assert elapsed < 3


def test_non_json_200_is_a_transport_error():
    with faulty_server("non_json_200") as server:
        response = HttpTarget(server.url).call(TOOL, VERSION, PAYLOAD)
        assert server.requests_seen == 1  # a well-formed HTTP answer: never retried
    assert (response.kind, response.status) == ("transport_error", 200)
    assert "not JSON" in response.detail and "BLEU = 42" in response.raw


def test_json_without_envelope_is_a_transport_error():
    with faulty_server("no_envelope_200") as server:
        response = HttpTarget(server.url).call(TOOL, VERSION, PAYLOAD)
    assert response.kind == "transport_error" and "envelope" in response.detail
    assert "'bleu'" in response.detail and '"bleu": 0.5' in response.raw


def test_html_page_is_a_transport_error():
    with faulty_server("html_page") as server:
        response = HttpTarget(server.url).call(TOOL, VERSION, PAYLOAD)
    assert response.kind == "transport_error" and "text/html" in response.detail
    assert "502 Bad Gateway" in response.detail  # the one-line detail names what came back
    assert response.raw.startswith("<!DOCTYPE html>")


def test_huge_body_is_cut_at_the_cap_with_bounded_memory():
    cap = 1024 * 1024
    with faulty_server("huge_body") as server:
        target = HttpTarget(server.url, max_bytes=cap, retries=0)
        tracemalloc.start()
        try:
            declared = target.call(TOOL, VERSION, PAYLOAD)  # request 1: Content-Length 40 MB
            undeclared = target.call(TOOL, VERSION, PAYLOAD)  # request 2: read until close
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        target.close()
    for response in (declared, undeclared):
        assert response.kind == "transport_error" and "cap" in response.detail
        assert len(response.raw) < 1000  # the report gets an excerpt, not megabytes
    assert "Content-Length 41943040" in declared.detail
    assert undeclared.raw.startswith('{"result":')  # what came back, as far as it was read
    assert peak < 4 * cap  # the 40 MB never came into memory


def test_dropped_connection_is_retried_then_reported():
    with faulty_server("drop_connection") as server:
        response = HttpTarget(server.url, retries=2).call(TOOL, VERSION, PAYLOAD)
        assert server.requests_seen == 3
    assert (response.kind, response.retries) == ("transport_error", 2)
    assert "dropped" in response.detail


def test_refused_connection_is_retried_then_reported():
    started = time.monotonic()
    response = HttpTarget(refused_url(), retries=2).call(TOOL, VERSION, PAYLOAD)
    assert (response.kind, response.retries) == ("transport_error", 2)
    assert "refused" in response.detail.lower()
    assert time.monotonic() - started < 5  # backoff 0 s, then 0.4 s


@pytest.mark.parametrize("base_url", ["http://[::1", "http://127.0.0.1:99999", "http://"])
def test_unusable_url_is_a_transport_error_never_an_exception(base_url):
    response = HttpTarget(base_url, retries=0).call(TOOL, VERSION, PAYLOAD)
    assert response.kind == "transport_error" and response.detail


# --- urllib3's retries: what is retried, how long it waits, how it is counted -----------------


def timed_call(target: HttpTarget):
    started = time.monotonic()
    response = target.call(TOOL, VERSION, PAYLOAD)
    return response, time.monotonic() - started


def test_retry_after_is_honoured_and_counted():
    with faulty_server("every_third_503", retry_after="1") as server:
        target = HttpTarget(server.url, retries=2)
        target.call(TOOL, VERSION, PAYLOAD), target.call(TOOL, VERSION, PAYLOAD)  # requests 1 and 2
        response, elapsed = timed_call(target)  # request 3: 503 "Retry-After: 1", then request 4 answers
        target.close()
        assert server.requests_seen == 4
    assert (response.kind, response.retries, response.result) == ("result", 1, EXPECTED)
    assert elapsed >= 0.95  # it waited the second the server asked for (the backoff alone waits 0 s)


def test_huge_retry_after_is_capped_at_the_timeout():
    with faulty_server("always_503", retry_after="3600") as server:
        response, elapsed = timed_call(HttpTarget(server.url, timeout=1, retries=1))
        assert server.requests_seen == 2
    assert (response.kind, response.status, response.retries) == ("transport_error", 503, 1)
    assert "Service Unavailable" in response.raw
    assert 0.95 <= elapsed < 20  # one capped 1 s wait, not an hour


def test_unreadable_retry_after_falls_back_to_the_backoff():
    with faulty_server("every_third_503", retry_after="after lunch") as server:
        target = HttpTarget(server.url, retries=2)
        responses = [target.call(TOOL, VERSION, PAYLOAD) for _ in range(3)]
        target.close()
    assert [(r.kind, r.retries) for r in responses] == [("result", 0), ("result", 0), ("result", 1)]


def test_connection_reset_is_retried():
    with faulty_server("reset_every_other") as server:
        response = HttpTarget(server.url, retries=2).call(TOOL, VERSION, PAYLOAD)
        assert server.requests_seen == 2  # request 1 reset, request 2 answered
    assert (response.kind, response.retries, response.result) == ("result", 1, EXPECTED)


def test_wrong_200_answer_is_never_retried():
    with faulty_server("wrong_200") as server:
        response = HttpTarget(server.url, retries=2).call(TOOL, VERSION, PAYLOAD)
        assert server.requests_seen == 1
    assert (response.kind, response.retries) == ("result", 0)  # a verdict for compare, not for the transport
    assert response.result == {"bleu": 0.5, "brevity_penalty": 1.0}


def test_413_with_retry_after_is_a_rejection_never_retried():
    # urllib3 would retry a 413 carrying Retry-After; a 413 is the contract's limit_exceeded verdict.
    with faulty_server("limit_413_with_retry_after") as server:
        response = HttpTarget(server.url, retries=2).call(TOOL, VERSION, PAYLOAD)
        assert server.requests_seen == 1
    assert (response.kind, response.status, response.error_code, response.retries) == (
        "rejection",
        413,
        "limit_exceeded",
        0,
    )


# --- classification of complete answers (pure) ---------------------------------------------


@pytest.mark.parametrize(
    "status, body, kind, code",
    [
        (400, b'{"error": {"code": "invalid_input", "message": "x"}}', "rejection", "invalid_input"),
        (413, b'{"error": "limit_exceeded"}', "rejection", "limit_exceeded"),
        (422, b'{"code": "invalid_input"}', "rejection", "invalid_input"),
        (400, b"Bad Request", "rejection", None),  # the hosted error body is unpublished: still a rejection
        (404, b"", "rejection", None),
        (429, b'{"error": "rate_limited"}', "transport_error", None),  # says nothing about the input
        (408, b"", "transport_error", None),
        (502, b"<html>Bad Gateway</html>", "transport_error", None),
        (301, b"", "transport_error", None),
        (200, b"", "transport_error", None),
        (200, b"[1, 2]", "transport_error", None),
        (200, b'{"result": 1, "result": 2}', "transport_error", None),  # duplicate keys are not strict JSON
        (200, b'{"result": NaN}', "transport_error", None),
        (200, b'{"result": {"bleu": 0.5}}', "result", None),
        (201, b'{"result": {}}', "result", None),
        (200, b'{"result": 1, "error": "x"}', "result", None),  # a 2xx with "result" is an answer
        (200, b'{"error": "invalid_input"}', "transport_error", None),  # over HTTP only the status rejects
        (400, b'{"result": 1}', "rejection", None),
        (422, b"[1]", "rejection", None),
        (400, b" ", "rejection", None),
    ],
)
def test_classify(status, body, kind, code):
    response = classify(status, body, "application/json", time.monotonic())
    assert (response.kind, response.error_code) == (kind, code)
    assert response.status == status and response.detail or kind == "result"
