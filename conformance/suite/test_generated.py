"""One Hypothesis property per tool x generated family (id ``generated/<tool>/<family>``)."""


def test_generated_family(conformance_run, property_spec):
    conformance_run.run_property(property_spec)
