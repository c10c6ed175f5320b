"""Shapes of inputs the detectors look at (malformed inputs touch no open point: the schema
rejects them under every reading)."""

from __future__ import annotations

from typing import Any

from oracle.validation import iter_token_paths


def bleu_token_lists(payload: dict) -> bool:
    """Hypotheses and references are lists of token lists of strings."""
    hyps, refs = payload.get("hypotheses"), payload.get("references")
    return (
        isinstance(hyps, list)
        and isinstance(refs, list)
        and all(isinstance(h, list) and all(isinstance(t, str) for t in h) for h in hyps)
        and all(
            isinstance(rs, list) and all(isinstance(r, list) and all(isinstance(t, str) for t in r) for r in rs)
            for rs in refs
        )
    )


def bleu_tokens(payload: dict) -> list[str]:
    return [token for _, token in iter_token_paths(payload)]


def texts(payload: dict) -> list[str]:
    """The texts of a chrF input, hypotheses then references."""
    return [t for key in ("hypotheses", "references") for t in payload.get(key, []) if isinstance(t, str)]


def integer_fields(schema: dict) -> list[str]:
    """The top-level input properties the schema types as integers."""
    return [name for name, prop in schema.get("properties", {}).items() if prop.get("type") == "integer"]


def well_formed_bleu_part(payload: dict) -> dict:
    """A BLEU input with every malformed piece dropped (a token that is not a string, a segment
    or reference that is not a list), so each prose rule still judges the rest."""

    def tokens(value: Any) -> list[str]:
        return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []

    hypotheses, references = payload.get("hypotheses"), payload.get("references")
    return {
        **payload,
        "hypotheses": [tokens(h) for h in hypotheses] if isinstance(hypotheses, list) else [],
        "references": [[tokens(r) for r in segment] if isinstance(segment, list) else [] for segment in references]
        if isinstance(references, list)
        else [],
    }
