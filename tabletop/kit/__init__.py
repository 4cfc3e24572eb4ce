"""The plugin author's kit: conformance checks, golden games, fuzzing, rule scenarios and
the pytest plugin. ``tabletop.testing`` is its public face."""
