"""Goofspiel for tabletop: a game of simultaneous sealed bids (see README.md)."""
