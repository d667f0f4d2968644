"""Writing the strategy reports: every registered game's sections, then the analysed games.

:func:`sections` lists them in report order: each game's sections from the game registry
(:meth:`dicemath.core.game.Game.report_sections`), then the analysed games
(:mod:`dicemath.reporting.sections.analyse`). :func:`write_reports` writes each section to
``<out>/<name>.md`` and an index ``<out>/README.md``, the sections in parallel processes; each
reads its expensive numbers from the committed study data (:mod:`dicemath.studies.report_studies`)
unless asked to recompute them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path

from dicemath.reporting.context import ReportContext
from dicemath.reporting.section import Section


def sections() -> tuple[Section, ...]:
    """Every report section, in report order."""
    from dicemath.games.registry import GAMES
    from dicemath.reporting.sections import analyse

    return (*(s for g in GAMES for s in g.report_sections()),
            Section("analyse", "Analysed games: where each policy loses", analyse.compute, analyse.render))


def section(name: str) -> Section:
    """The registered section called ``name``.

    Raises:
        ValueError: no such section.
    """
    for candidate in sections():
        if candidate.name == name:
            return candidate
    raise ValueError(f"unknown report section {name!r}; known: {section_names()}")


def section_names() -> list[str]:
    """The names of every registered section, in report order."""
    return [s.name for s in sections()]


TIMES = Path(__file__).resolve().parent.parent / "data" / "report_times.json"
"""The last measured time of each section (``benchmarks/bench_report.py --record``):
``{"machine": ..., "sections": {name: {"cold": seconds, "warm": seconds}}}``; ``cold`` is from an
empty cache, each section reading its committed studies."""


def expected_times() -> dict[str, dict]:
    """The measured times of :data:`TIMES` by section name (empty when not measured)."""
    try:
        return json.loads(TIMES.read_text(encoding="utf-8")).get("sections", {})
    except (OSError, ValueError):
        return {}


def _expected_text(name: str, times: dict, *, recompute: bool = False, quick: bool = False) -> str:
    """What the progress line says of the section's expected time (:data:`TIMES`)."""
    measured = times.get(name)
    if measured is None:
        return "expected time not measured"
    cold = measured.get("cold")
    warm = measured.get("warm")
    text = f"expected about {cold:.0f} s with an empty cache" + ("" if warm is None else f", {warm:.0f} s warm")
    if recompute:
        return f"recomputing its studies: expected longer than the {cold:.0f} s measured reading them"
    if quick:
        return f"quick variant: expected less than the full section's {cold:.0f} s"
    return text


def _write_section(name: str, out: Path, quick: bool, recompute: bool, record: bool, line: str,
                   announce: bool) -> tuple[float, list[str]]:
    """Write section ``name`` into ``out`` (in a worker process); print its progress line
    when ``announce``, else return it. Returns the seconds it took and the lines to log."""
    start = time.perf_counter()
    lines = []
    if announce:
        print(line + "\n", end="", flush=True)           # one write: lines of parallel sections stay whole
    else:
        lines.append(line)
    chosen = section(name)
    body = chosen.build(ReportContext(out, quick=quick, recompute=recompute, record=record))
    (out / f"{name}.md").write_text(f"# {chosen.title}\n\n{body.strip()}\n", encoding="utf-8")
    return time.perf_counter() - start, lines


def write_reports(out_dir: str | Path = "reports", *, only: Sequence[str] | None = None,
                  quick: bool = False, recompute: bool = False, record: bool = False,
                  jobs: int | None = None, log=print) -> list[Path]:
    """Write every (or ``only`` the named) report section into ``out_dir``.

    The sections run in ``jobs`` processes at once, the longest expected first
    (:data:`TIMES`); each writes its own files, and the index lists them in report order.

    Args:
        out_dir: destination folder, created if missing.
        only: names of the sections to write (default: all of :func:`sections`).
        quick: smaller computations (fewer simulations), for tests and previews.
        recompute: compute the expensive studies afresh instead of reading their committed data
            (:mod:`dicemath.studies.report_studies`).
        record: write the recomputed studies into the committed data (``analyses/report_studies.py``).
        jobs: processes (default: one per core, at most one per section); 1 writes the sections
            one after the other in this process.
        log: where to print one progress line per section as it starts (what it does and how
            long it is expected to take) and one as it is written.

    Returns:
        The paths of the Markdown files written (report order), the index last.

    Raises:
        ValueError: ``only`` names a section that does not exist.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    every = sections()
    chosen = list(every)
    if only:
        unknown = sorted(set(only) - {s.name for s in every})
        if unknown:
            raise ValueError(f"unknown report section(s) {unknown}; known: {[s.name for s in every]}")
        chosen = [s for s in every if s.name in only]
    times = expected_times()
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(chosen)))
    lines = {s.name: f"[{number}/{len(chosen)}] {s.title} ... "
                     f"({_expected_text(s.name, times, recompute=recompute, quick=quick)})"
             for number, s in enumerate(chosen, 1)}
    args = {s.name: (s.name, out, quick, recompute, record, lines[s.name]) for s in chosen}
    if jobs == 1:
        for s in chosen:
            log(lines[s.name], flush=True)
            seconds, _ = _write_section(*args[s.name], announce=False)
            log(f"      wrote {out / (s.name + '.md')} ({s.name}) in {seconds:.1f} s", flush=True)
    else:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        announce = log is print
        longest_first = sorted(chosen, key=lambda s: -_seconds(times, s.name))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending = {pool.submit(_write_section, *args[s.name], announce=announce): s for s in longest_first}
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    s = pending.pop(future)
                    try:
                        seconds, early = future.result()
                    except BaseException:
                        pool.shutdown(wait=False, cancel_futures=True)
                        raise
                    for line in early:
                        log(line, flush=True)
                    log(f"      wrote {out / (s.name + '.md')} ({s.name}) in {seconds:.1f} s", flush=True)
    written = [out / f"{s.name}.md" for s in chosen]
    index = out / "README.md"
    lines_ = ["# dicemath strategy reports", "",
              "Generated by `dicemath report`; every number here is computed by the library.", ""]
    lines_ += [f"- [{s.title}]({s.name}.md)" for s in every if (out / f"{s.name}.md").exists()]
    index.write_text("\n".join(lines_) + "\n", encoding="utf-8")
    written.append(index)
    return written


def _seconds(times: dict, name: str) -> float:
    measured = times.get(name, {})
    return float(measured.get("cold") or measured.get("warm") or 0.0)
