"""Build hook for the optional compiled parts: the Quarto search (``tabletop_quarto._kernel``)
the games' observation fast paths for the research bridges (Quarto's and Quartino's
``_observe``) and the bridges' action mask (``tabletop.bridges._mask``).

Everything else is declared in pyproject.toml. The extensions are optional: without a C
compiler ``pip install -e .`` still succeeds and the solver and the observations run in
plain Python.
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
        Extension(
            "tabletop.bridges._mask",
            ["tabletop/bridges/_mask.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "tabletop_quartino._observe",
            ["plugins/quartino/_observe.c"],
            optional=True,
            extra_compile_args=["-O3"],
        ),
    ]
)
