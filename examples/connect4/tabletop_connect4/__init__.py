"""Connect Four for tabletop: a third-party game plugin written against the public API."""
