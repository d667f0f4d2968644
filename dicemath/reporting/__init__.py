"""Strategy reports: Markdown with matplotlib figures and drawn positions, one section per game.

A section *computes, then renders* (:class:`Section`): ``compute(context)`` returns the
section's numbers (a data object, no prose), ``render(data, context)`` writes the Markdown
and saves the figures through ``context.save_figure`` and the pictures of positions (SVG)
through ``context.save_picture``; every sentence that states a conclusion is read off the
data. Each game's sections live in its package and are listed by its
:class:`~dicemath.core.game.Game` object; :mod:`.writer` runs them.
"""

from dicemath.reporting.context import ReportContext
from dicemath.reporting.section import Section
from dicemath.reporting.writer import section, section_names, sections, write_reports

__all__ = ["ReportContext", "Section", "section", "section_names", "sections", "write_reports"]
