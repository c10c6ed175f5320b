"""Hypothesis against the HTTP layer of `conformance serve`: no request earns a 5xx.

Whatever the body, method, path or headers, the server answers 2xx with
``{"result": ...}`` (or the GET endpoints' JSON), or a 4xx with the error body
``{"error": {"code", "message"}}``: never a 5xx, a hang or a dropped connection.
"""

from __future__ import annotations

import json
import re

import pytest
import requests
from faulty_servers import shared_oracle_server
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.hypothesis_profiles import TESTS_SERVER_FUZZ

TOOLS = ["bleu-ngrams-count", "bleu-corpus-compute", "chrf-plus-plus-compute"]
VALID_BODIES = {
    "bleu-ngrams-count": {
        "hypotheses": [["the", "cat", "sat"]],
        "references": [[["the", "cat"], ["a", "cat", "sat"]]],
        "max_order": 2,
        "detail": "ngrams",
    },
    "bleu-corpus-compute": {
        "hypotheses": [["the", "cat"], ["on", "a", "mat"]],
        "references": [[["the", "cat"]], [["on", "the", "mat"], ["a", "mat"]]],
        "decimals": 4,
    },
    "chrf-plus-plus-compute": {
        "hypotheses": ["The cat sat.", "(hi)"],
        "references": ["the cat sat!", "hi"],
        "beta": 2,
        "lowercase": True,
    },
}
FUZZ = settings.get_profile(TESTS_SERVER_FUZZ)


@pytest.fixture(scope="module")
def server():
    url, _process, log_path = shared_oracle_server()
    yield url, log_path
    log = log_path.read_text()
    assert "internal error" not in log and not re.search(r'" 5\d\d ', log), "a request reached the catch-all"


@pytest.fixture(scope="module")
def session(server):
    with requests.Session() as http:
        yield http


def check_answer(response: requests.Response, method: str = "POST") -> None:
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if method == "HEAD":
        return
    body = json.loads(response.content)  # every answer, success or error, is strict JSON
    if response.status_code >= 400:
        assert set(body) == {"error"} and isinstance(body["error"]["code"], str) and body["error"]["message"]
    elif "/execute" in response.url:
        assert set(body) == {"result"}


# JSON-ish values: what a careless or hostile client might send in place of the input.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=30,
)


def mutate(data: st.DataObject, value):
    """Replace one node of a valid input with something else, at any depth."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutate(data, value[key])}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        return value[:index] + [mutate(data, value[index])] + value[index + 1 :]
    return data.draw(json_values)


@FUZZ
@given(tool=st.sampled_from(TOOLS), body=st.binary(max_size=2000))
def test_random_bytes(server, session, tool, body):
    check_answer(
        session.post(
            f"{server[0]}/v1/tools/{tool}/versions/1.0.0/execute",
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
    )


@FUZZ
@given(tool=st.sampled_from(TOOLS), value=json_values)
def test_random_json(server, session, tool, value):
    check_answer(session.post(f"{server[0]}/v1/tools/{tool}/versions/1.0.0/execute", json=value, timeout=30))


@FUZZ
@given(tool=st.sampled_from(TOOLS), data=st.data(), cut=st.integers(0, 400), ascii_only=st.booleans())
def test_mutated_valid_input(server, session, tool, data, cut, ascii_only):
    mutated = mutate(data, VALID_BODIES[tool])
    text = json.dumps(mutated, ensure_ascii=ascii_only)  # lone surrogates travel as \u escapes
    body = text.encode("utf-8", errors="surrogatepass")  # ... or, unescaped, as invalid UTF-8
    if data.draw(st.booleans()):
        body = body[:cut]  # truncated
    check_answer(
        session.post(
            f"{server[0]}/v1/tools/{tool}/versions/1.0.0/execute",
            data=body,
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
    )


path_segment = st.sampled_from(
    ["v1", "tools", "versions", "execute", "1.0.0", "..", ".", "%2F", "%00", ""] + TOOLS
) | st.text(st.characters(codec="ascii", exclude_characters="/?#"), max_size=10)
# printable ASCII without leading/trailing spaces: anything else the client library refuses to send
header_value = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60).map(str.strip)


@FUZZ
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]),
    segments=st.lists(path_segment, max_size=7),
    content_type=st.none()
    | st.sampled_from(
        ["application/json", "text/plain", "application/json; charset=utf-16", "application/x-www-form-urlencoded", ""]
    )
    | header_value,
    extra_headers=st.dictionaries(
        st.sampled_from(
            ["Accept", "Accept-Encoding", "X-Anything", "Expect", "Range", "If-None-Match", "Origin", "Authorization"]
        ),
        header_value,
        max_size=3,
    ),
    body=st.none() | st.binary(max_size=200) | st.just(json.dumps(VALID_BODIES["bleu-corpus-compute"]).encode()),
)
def test_random_requests(server, session, method, segments, content_type, extra_headers, body):
    headers = dict(extra_headers)
    headers.pop("Expect", None)  # requests cannot answer a 100-continue handshake
    if content_type is not None:
        headers["Content-Type"] = content_type
    response = session.request(
        method, server[0] + "/" + "/".join(segments), data=body, headers=headers, timeout=30, allow_redirects=False
    )
    check_answer(response, method)
