"""The compiled Pegs kernel (a C extension built at install time with the system compiler);
everything else about the package is in pyproject.toml."""

import os

from setuptools import Extension, setup

FLAGS = ["-O3", "-march=native", "-fno-math-errno"]
"""``DICEMATH_CFLAGS`` replaces these (e.g. ``-O3`` alone for a build that runs on other CPUs)."""

setup(ext_modules=[Extension(
    "dicemath.games.pegs_fives.fullboard._pegs_c",
    sources=["dicemath/games/pegs_fives/fullboard/_pegs_c.c"],
    depends=["dicemath/games/pegs_fives/fullboard/_pegs_c_solver.h"],
    extra_compile_args=os.environ.get("DICEMATH_CFLAGS", " ".join(FLAGS)).split(),
)])
