"""The report sections that belong to no game: :mod:`.analyse` (analysed games, where each
policy loses). Each game's sections live in its own package and are listed by its
:class:`~dicemath.core.game.Game` object (:meth:`~dicemath.core.game.Game.report_sections`).
"""
