"""The quartino game plugin for tabletop."""
