"""The exact full-board solver of Pegs and Fives: every board of the 12-row game.

Modules (imported on demand; ``import dicemath`` loads none of them, nor Dask or the C kernels):

* :mod:`.layout` -- board index <-> board, independent board sets, slabs;
* :mod:`.fives_kernel` -- the compiled Fives kernel (FIVES-1..5, C compiled at install:
  ``_fives_c.c``); :mod:`.pegs_kernel` -- the compiled Pegs kernel (PEGS-1..9, C compiled at
  install: ``_pegs_c.c``), same interface;
* :mod:`.driver` -- kernel dispatch, in-memory solves, resumable builds on disk (a Dask
  graph of slab tasks on local threads or a cluster);
* :mod:`.storage` -- full-board tables in the core table store: spec, versioning, queries;
* :mod:`.guides` -- tables evaluated from a board-value estimate (the lookahead's guides;
  the distilled model's values and the network's loop in C compiled at install:
  ``_network_c.c``);
* :mod:`.advice` -- row advice from a table or a compiled solve, estimates otherwise;
* :mod:`.simulate` -- whole games played by a table's policy with seeded dice (the
  distribution of the number of turns).

Example:
    >>> from dicemath.games.pegs_fives.rules import FIVES
    >>> from dicemath.games.pegs_fives.fullboard.driver import solve_table
    >>> E = solve_table(FIVES, (6, 7))
    >>> round(float(E[0]), 4)
    4.3009
"""
