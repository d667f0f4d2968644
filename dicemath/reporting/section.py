"""One report section: a name, a title, and how it computes its numbers and writes them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dicemath.reporting.context import ReportContext


@dataclass(frozen=True)
class Section:
    """One report: its file name, title, and its two steps.

    Attributes:
        name, title: file name (without ``.md``) and heading.
        compute: ``compute(context) -> data``, the section's numbers (no prose).
        render: ``render(data, context) -> Markdown``; every sentence that states a conclusion
            is read off ``data``.
    """

    name: str
    title: str
    compute: Callable[[ReportContext], Any]
    render: Callable[[Any, ReportContext], str]

    def data(self, context: ReportContext) -> Any:
        """The section's numbers."""
        return self.compute(context)

    def build(self, context: ReportContext) -> str:
        """The section's Markdown."""
        return self.render(self.data(context), context)
