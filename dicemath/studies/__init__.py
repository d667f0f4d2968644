"""Studies: measurements made with the games' engines, and their committed results.

Nothing here is needed to answer a query (the command line, ``advise`` and ``analyse`` never
import it); the report sections (the games' ``report*.py`` modules) read the results, and
the scripts of ``analyses/`` run the studies and write them into :data:`DATA`.

* :mod:`.backgammon_selfplay`: cubeless self-play games by the evaluator's best play;
* :mod:`.backgammon_playtive`: the Playtive rule (BG-4) measured by paired self-play
  (``data/playtive_study.json``, by ``analyses/backgammon_playtive.py``);
* :mod:`.backgammon_gnubg_agreement`: dicemath's cube and move advice against GNU
  Backgammon's decisions (``data/gnubg_agreement.json``, by
  ``analyses/backgammon_gnubg_agreement.py``);
* :mod:`.full_board_results`: the full-board results of Pegs and Fives
  (``data/full_board_results.json``, by ``analyses/pegs_fives_full_board.py``);
* :mod:`.full_board_distill`: distilling the exact full-board table into the shipped
  model of :mod:`dicemath.games.pegs_fives.distilled`;
* BohnDuell's solved stocks, advisor strength, the search judged by exact play and the
  strong table on a cluster (``data/bohnduell_solved_stocks.json``,
  ``data/bohnduell_advisor_strength.json``, ``data/bohnduell_search_quality.json``,
  ``data/bohnduell_distributed.json``, by ``analyses/bohnduell_solve_stocks.py``,
  ``analyses/bohnduell_strength.py``, ``analyses/bohnduell_search_quality.py`` and
  ``analyses/bohnduell_distributed.py``; read by :mod:`dicemath.games.bohnduell.report`);
* :mod:`.report_studies`: the report sections' own expensive studies (exact races, the
  Pitjesbak tables of three and four players, long simulations; ``data/report_studies.json``,
  by ``analyses/report_studies.py``).

Studies import the games and the core, never the reporting or the command line.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
"""The studies' committed results, shipped in the package."""
