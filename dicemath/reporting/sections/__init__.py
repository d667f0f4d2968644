"""The report sections, one module per game or section: ``compute(context) -> data`` and
``render(data, context) -> Markdown`` (the framework is :mod:`dicemath.reporting`; which
section is where is read from the game registry, :mod:`dicemath.games.registry`).

* :mod:`.dice`: hits for every number (section ``dice``);
* :mod:`.pegs_fives`: sections ``pegs`` and ``fives``; :mod:`.full_board`: the full-board
  results of Pegs and Fives (``full_board``); :mod:`.playing_to_win`: race-aware play
  against the opponent, exact on reduced boards and simulated on the full board
  (``playing_to_win``);
* :mod:`dicemath.games.pitjesbak.report`: section ``pitjesbak``;
* :mod:`.backgammon_bearoff`, :mod:`.backgammon_cube`, :mod:`.backgammon_playtive`: the
  three Backgammon sections;
* :mod:`.bohnduell`: section ``bohnduell``;
* :mod:`.analyse`: analysed games, where each policy loses (``analyse``).

Sections read the games (:mod:`dicemath.games`), the core and the committed results of the
studies (:mod:`dicemath.studies`); no game imports a section. Importing this package imports
none of them.
"""
