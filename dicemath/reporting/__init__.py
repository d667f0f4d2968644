"""Strategy reports: Markdown with matplotlib figures and drawn positions, one section per game.

A section *computes, then renders* (:class:`Section`): ``compute(context)`` returns the
section's numbers (a data object, no prose), ``render(data, context)`` writes the Markdown
and saves the figures through ``context.save_figure`` and the pictures of positions (SVG)
through ``context.save_picture``; every sentence that states a conclusion is read off the
data. Each game's sections live in its package and are listed by its
:class:`~dicemath.core.game.Game` object; :mod:`.writer` runs the sections it is handed
(:func:`sections` of the games it is handed: the command line and :func:`dicemath.write_reports`
hand every registered game). A section's expensive numbers come from the committed study data
(:meth:`ReportContext.study`), or from the study runner the caller hands down.
"""

from dicemath.reporting.context import ReportContext, StudyRunner
from dicemath.reporting.section import Section
from dicemath.reporting.writer import section, section_names, sections, write_reports

__all__ = ["ReportContext", "Section", "StudyRunner", "section", "section_names", "sections", "write_reports"]
