"""One test per golden fixture case; the test id is the case's stable id."""


def test_fixture_case(conformance_run, fixture_case):
    conformance_run.run_fixture_case(fixture_case)
