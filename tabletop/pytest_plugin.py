"""pytest plugin: collects rule-scenario files as test items (being written)."""
