"""The core's UI-free pieces that terminal and web front ends share (see :mod:`.table`)."""
