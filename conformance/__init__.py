"""Conformance suite for the MT-metric tool contracts: harness, targets, reports, CLI."""

__version__ = "0.1.0"
