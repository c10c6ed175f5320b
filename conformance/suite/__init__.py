"""The conformance suite as pytest test modules; run with the plugin:

pytest --pyargs conformance.suite -p conformance.pytest_plugin --target TARGET
"""
