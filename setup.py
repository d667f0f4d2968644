"""The compiled kernels: C extensions built at install time with the system compiler; everything
else about the package is in pyproject.toml.

Every C file of the package whose name starts with an underscore (``dicemath/**/_*.c``) is one
extension module, named by its path (``dicemath/games/pig/_pig_c.c`` is
``dicemath.games.pig._pig_c``); the headers (``*.h``) beside it, in the folders above it up to
its game's package and in ``dicemath/core`` are its dependencies (a changed header rebuilds it),
and ``dicemath/core`` is on every include path.

The default build runs on any x86-64 CPU: kernels that vectorise compile their hot code once per
instruction set (AVX-512, AVX2, scalar) and pick the fastest the CPU runs at import; the
environment variable ``DICEMATH_SIMD`` (``avx512``, ``avx2`` or ``scalar``) forces one at run
time. Other CPUs build the scalar path. ``DICEMATH_CFLAGS`` replaces the compiler flags
:data:`FLAGS` at build time, e.g.::

    DICEMATH_CFLAGS="-O3 -march=native -fno-math-errno" pip install -e .

for a build that runs only on CPUs like the one it was built on."""

import os
from pathlib import Path

from setuptools import Extension, setup

FLAGS = ["-O3", "-fno-math-errno"]
"""The compiler flags of every extension unless ``DICEMATH_CFLAGS`` is set (which replaces them).
GCC fuses a multiply and an add where the instruction set has the instruction (the AVX2 and
AVX-512 paths): a kernel that must agree bit for bit across paths computes its sums without
such paths, or asks for ``__attribute__((optimize("fp-contract=off")))``."""

CFLAGS = os.environ.get("DICEMATH_CFLAGS", " ".join(FLAGS)).split()
CORE = "dicemath/core"


def extensions() -> list[Extension]:
    """One extension per ``dicemath/**/_*.c``, in a stable order."""
    found = []
    for source in sorted(Path("dicemath").rglob("_*.c")):
        name = ".".join(source.with_suffix("").parts)
        folders = [folder for folder in source.parents if folder.is_relative_to("dicemath/games")] + [Path(CORE)]
        headers = sorted({str(header) for folder in folders for header in folder.glob("*.h")})
        found.append(Extension(name, sources=[str(source)], depends=headers, include_dirs=[CORE],
                               extra_compile_args=CFLAGS))
    return found


setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
