"""The compiled Pegs kernel and the distilled network's slab loop (C extensions built at install
time with the system compiler); everything else about the package is in pyproject.toml."""

import os

from setuptools import Extension, setup

FLAGS = ["-O3", "-fno-math-errno"]
"""``DICEMATH_CFLAGS`` replaces these (e.g. ``-O3 -march=native -fno-math-errno`` for a build that
runs only on CPUs like the one it was built on)."""

FULLBOARD = "dicemath/games/pegs_fives/fullboard"
CFLAGS = os.environ.get("DICEMATH_CFLAGS", " ".join(FLAGS)).split()

setup(ext_modules=[
    Extension("dicemath.games.pegs_fives.fullboard._pegs_c", sources=[f"{FULLBOARD}/_pegs_c.c"],
              depends=[f"{FULLBOARD}/_pegs_c_passes.h", f"{FULLBOARD}/_pegs_c_solver.h"], extra_compile_args=CFLAGS),
    Extension("dicemath.games.pegs_fives.fullboard._network_c", sources=[f"{FULLBOARD}/_network_c.c"],
              depends=[f"{FULLBOARD}/_network_c_path.h"], extra_compile_args=CFLAGS),
])
