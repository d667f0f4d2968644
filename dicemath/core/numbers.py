"""Numbers as the reports and the command line print them, float noise written as 0.

Values summed or differenced in float64 along different paths leave noise in the last
bits where the exact answer is 0 (a symmetric opening's equity comes out as 1.5e-18).
:func:`number_text` writes anything smaller than :data:`NOISE` in size as 0 and everything
else as it is, so a real small value (a loss of 1e-6) still shows.

Example:
    >>> number_text(1.518e-18), number_text(-1.518e-18, "+.4f"), number_text(1e-6), number_text(0.12345)
    ('0', '+0.0000', '1e-06', '0.1235')
"""

from __future__ import annotations

from fractions import Fraction

NOISE = 1e-12
"""Values smaller than this in size are float noise around 0."""


def number_text(value: float | Fraction, spec: str = ".4g") -> str:
    """``value`` (a float, or an exact ``Fraction`` shown as its float) formatted by ``spec``
    (default 4 significant digits), 0 when it is noise.

    Example:
        >>> number_text(0.0), number_text(2.5e-13, "+.4g"), number_text(-0.25, "+.2f")
        ('0', '+0', '-0.25')
        >>> number_text(Fraction(3, 4))
        '0.75'
    """
    number = float(value)
    return format(0.0 if abs(number) < NOISE else number, spec)
