"""The quarto game plugin for tabletop."""
