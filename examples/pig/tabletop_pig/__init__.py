"""Pig for tabletop: a dice game with chance steps (see README.md)."""
