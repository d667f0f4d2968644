"""Writing the strategy reports: the sections it is handed, then the index.

:func:`sections` lists the sections of the games it is handed, in report order: each game's
(:meth:`dicemath.core.game.Game.report_sections`), then the analysed games of those games
(:mod:`dicemath.reporting.sections.analyse`). :func:`write_reports` writes each section it is
handed to ``<out>/<name>.md`` and an index ``<out>/README.md``, the sections in parallel
processes; each reads its expensive numbers from the committed study data
(:meth:`~dicemath.reporting.context.ReportContext.study`) unless asked to recompute them. The
command line (``dicemath report``) and :func:`dicemath.write_reports` hand it the sections of
every registered game.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from dicemath.core.game import Game
from dicemath.reporting.context import ReportContext, StudyRunner
from dicemath.reporting.section import Section
from dicemath.reporting.sections import analyse


def sections(games: Iterable[Game]) -> tuple[Section, ...]:
    """Every report section of ``games``, in report order: each game's, then the analysed
    games (:func:`dicemath.reporting.sections.analyse.section`)."""
    games = tuple(games)
    return (*(s for g in games for s in g.report_sections()), analyse.section(games))


def section(name: str, sections: Iterable[Section]) -> Section:
    """The section called ``name`` among ``sections``.

    Raises:
        ValueError: no such section.
    """
    sections = tuple(sections)
    for candidate in sections:
        if candidate.name == name:
            return candidate
    raise ValueError(f"unknown report section {name!r}; known: {section_names(sections)}")


def section_names(sections: Iterable[Section]) -> list[str]:
    """The names of ``sections``, in their order."""
    return [s.name for s in sections]


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


def _write_section(chosen: Section, out: Path, quick: bool, recompute: bool, record: bool,
                   runner: StudyRunner | None, line: str, announce: bool) -> tuple[float, list[str]]:
    """Write the section ``chosen`` into ``out`` (in a worker process); print its progress
    line when ``announce``, else return it. Returns the seconds it took and the lines to log."""
    start = time.perf_counter()
    lines = []
    if announce:
        print(line + "\n", end="", flush=True)           # one write: lines of parallel sections stay whole
    else:
        lines.append(line)
    body = chosen.build(ReportContext(out, quick=quick, recompute=recompute, record=record, runner=runner))
    (out / f"{chosen.name}.md").write_text(f"# {chosen.title}\n\n{body.strip()}\n", encoding="utf-8")
    return time.perf_counter() - start, lines


def write_reports(out_dir: str | Path, sections: Iterable[Section], *, only: Sequence[str] | None = None,
                  quick: bool = False, recompute: bool = False, record: bool = False,
                  jobs: int | None = None, log: Callable[..., None] = print,
                  runner: StudyRunner | None = None) -> list[Path]:
    """Write every one (or ``only`` the named) of ``sections`` into ``out_dir``.

    The sections run in ``jobs`` processes at once, the longest expected first
    (:data:`TIMES`); each writes its own files, and the index lists them in report order.

    Args:
        out_dir: destination folder, created if missing.
        sections: the report's sections, in report order (:func:`sections` of the games to
            report on).
        only: names of the sections to write (default: all of ``sections``).
        quick: smaller computations (fewer simulations), for tests and previews.
        recompute: compute the expensive studies afresh instead of reading their committed data
            (:meth:`~dicemath.reporting.context.ReportContext.study`).
        record: have ``runner`` write the studies it computes into the committed data
            (``analyses/report_studies.py``).
        jobs: processes (default: one per core, at most one per section); 1 writes the sections
            one after the other in this process.
        log: where to print one progress line per section as it starts (what it does and how
            long it is expected to take) and one as it is written.
        runner: computes (and, with ``record``, records) a study the sections ask for that is
            not read from the committed data (:data:`~dicemath.reporting.context.StudyRunner`;
            the command line hands :func:`dicemath.studies.report_studies.study`); without
            one, such a study is computed in place.

    Returns:
        The paths of the Markdown files written (report order), the index last.

    Raises:
        ValueError: ``only`` names a section that does not exist, or ``record`` is set without
            a ``runner``.
    """
    if record and runner is None:
        raise ValueError("recording the studies needs a study runner (runner=...)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    every = tuple(sections)
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
    args = {s.name: (s, out, quick, recompute, record, runner, lines[s.name]) for s in chosen}
    if jobs == 1:
        for s in chosen:
            log(lines[s.name], flush=True)
            seconds, _ = _write_section(*args[s.name], announce=False)
            log(f"      wrote {out / (s.name + '.md')} ({s.name}) in {seconds:.1f} s", flush=True)
    else:
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
