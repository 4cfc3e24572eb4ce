"""The ctverak game plugin for tabletop."""
