"""The compiled Pegs kernel and the distilled network's slab loop (C extensions built at install
time with the system compiler); everything else about the package is in pyproject.toml.

The default build runs on any x86-64 CPU: the hot code is compiled once per instruction set
(AVX-512, AVX2, scalar) and the extensions pick the fastest the CPU runs at import; the
environment variable ``DICEMATH_SIMD`` (``avx512``, ``avx2`` or ``scalar``) forces one at run
time. Other CPUs build the scalar path. ``DICEMATH_CFLAGS`` replaces the compiler flags
:data:`FLAGS` at build time, e.g.::

    DICEMATH_CFLAGS="-O3 -march=native -fno-math-errno" pip install -e .

for a build that runs only on CPUs like the one it was built on."""

import os

from setuptools import Extension, setup

FLAGS = ["-O3", "-fno-math-errno"]
"""The compiler flags of both extensions unless ``DICEMATH_CFLAGS`` is set (which replaces them)."""

FULLBOARD = "dicemath/games/pegs_fives/fullboard"
CFLAGS = os.environ.get("DICEMATH_CFLAGS", " ".join(FLAGS)).split()

setup(ext_modules=[
    Extension("dicemath.games.pegs_fives.fullboard._pegs_c", sources=[f"{FULLBOARD}/_pegs_c.c"],
              depends=[f"{FULLBOARD}/_pegs_c_passes.h", f"{FULLBOARD}/_pegs_c_solver.h"], extra_compile_args=CFLAGS),
    Extension("dicemath.games.pegs_fives.fullboard._network_c", sources=[f"{FULLBOARD}/_network_c.c"],
              depends=[f"{FULLBOARD}/_network_c_path.h"], extra_compile_args=CFLAGS),
])
