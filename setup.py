"""Build hook for the optional compiled parts: the Quarto search (``tabletop_quarto._kernel``)
and the games' observation fast paths for the research bridges (``_observe``).

Everything else is declared in pyproject.toml. The extension is optional: without a C
compiler ``pip install -e .`` still succeeds and the same code runs in plain Python.
"""

import platform

from setuptools import Extension, setup

FLAGS = ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64"):
    FLAGS.append("-mpopcnt")  # a single instruction instead of a library call

setup(
    ext_modules=[
        Extension(
            "tabletop_quarto._kernel",
            ["plugins/quarto/_kernel.c"],
            optional=True,
            extra_compile_args=FLAGS,
        ),
        Extension(
            "tabletop_quarto._observe",
            ["plugins/quarto/_observe.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
