"""The core: matches, records, options, errors, the registry and the plugin manager.

It imports nothing above it (no agents, no CLI, no optional stack) and never names a game.
"""
