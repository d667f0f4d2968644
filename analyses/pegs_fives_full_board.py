"""Full-board Pegs/Fives analyses: build, evaluate, commit the numbers.

Builds (or resumes) the optimal table in ``--table DIR`` and writes what it measures to
``dicemath/studies/data/full_board_results.json`` (:mod:`dicemath.studies.full_board_results`),
which the report section ``full_board`` and ``notebooks/full_board.ipynb`` read, and the
training sample to ``analyses/data``: ``all`` is the one resumable command that leaves in the
repository everything a later step needs (the table itself never goes into git). Steps:

* ``build`` -- the optimal table (resumable; 69 minutes measured for Pegs on 2 cores);
* ``verify`` -- recompute random boards of a finished table with this checkout's kernel
  (the table file is mapped copy-on-write, never changed) and record how many agree;
* ``optimal`` -- the optimum from the empty board, the optimal rows of every first throw,
  the distribution of the number of turns by simulation of optimal play (an estimate);
* ``sample`` -- draw the distilled model's training sample from the table and commit it as
  ``analyses/data/<game>_distill_sample.npz`` (tens of MB;
  :func:`dicemath.studies.full_board_distill.table_sample`);
* ``distill`` -- train the compact model on the committed sample (no table needed;
  :mod:`dicemath.studies.full_board_distill`) and ship it in
  ``dicemath/games/pegs_fives/data/<game>_distilled.npz``;
* ``model [fitted|distilled]`` -- a value estimate's error over every board against the table
  (evaluated slab by slab, no guide table written; default the distilled model);
* ``traps POLICY`` -- whether a fixed policy (``greedy``, ``safe_greedy``) can lose a game
  forever, needing no table and no sweep: seeded games from the empty board, each stopped
  after ``--max-turns``; a game still running stands on a board from which, if
  :func:`...turn.stays_forever` proves it by enumerating the first throws, the policy
  never leaves. Its seeded path has positive probability, so the policy's expected turns
  from the empty board are infinite, exactly; the share of games trapped is an estimate
  (with its 95% Wilson interval), as is the mean of the games that finished;
* ``evaluate POLICY`` -- one exact policy evaluation over every board (a sweep of the
  kernel): ``greedy`` (or read an existing greedy table, ``--policy-table``) and
  ``safe_greedy``; ``fitted`` and ``distilled``, the kernel's ``lookahead`` on a guide table
  of the fitted advisor's / the distilled model's values. A policy that never finishes from
  some boards (Pegs' greedy overshoots forever on boards like ``4,...,4,0``; see ``traps``)
  has value inf there: those boards are counted (``never_finishes_boards``) and left out of
  the gaps, and its ``expected_turns`` is null when the empty board is one of them. The
  policy table goes to ``--work`` and the
  guide to ``--guides`` (default ``/dev/shm``: memory, not disk); both are deleted once
  the numbers are recorded (disk holds one extra table at a time). The guide is compared
  with the optimal table board by board (the model's error over all boards). The record
  holds the run's times (``guide_seconds``, ``sweep_seconds``, ``wall_seconds`` for both)
  and peak memory (``peak_resident_gb``), and keeps an earlier record's
  ``plain_lookahead`` and ``previous_sweep``.

Every step is resumable (the builds resume chunk by chunk; a recorded step is skipped
unless ``--force``). ``--open ROWS`` runs the same steps on a reduced board (its optimal
table is built in ``--work``), for measuring the pipeline; write those results elsewhere
with ``--results``.

Usage::

    python analyses/pegs_fives_full_board.py pegs all --table /work/tables/pegs_full
    python analyses/pegs_fives_full_board.py fives optimal --table /work/tables/fives_full
    python analyses/pegs_fives_full_board.py pegs sample --table /work/tables/pegs_full
    python analyses/pegs_fives_full_board.py pegs traps greedy
    python analyses/pegs_fives_full_board.py pegs distill
    python analyses/pegs_fives_full_board.py fives evaluate distilled --table /work/tables/fives_full \\
        --work /work/tables/tmp_eval
    python analyses/pegs_fives_full_board.py fives evaluate greedy --table /work/tables/fives_full \\
        --policy-table /work/tables/fives_full_greedy
    python analyses/pegs_fives_full_board.py fives all --open 4,5,6,7,8,9,10,11 --work /tmp/fb \\
        --results /tmp/fb/results.json
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")      # small products on threads of our own: no BLAS spinning

import argparse
import hashlib
import resource
import shutil
import time
from pathlib import Path

import numpy as np

from dicemath.games.pegs_fives.advisor import board_value
from dicemath.games.pegs_fives.distilled import DistilledValue, model_path
from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.advice import ExactAdvisor
from dicemath.games.pegs_fives.fullboard.driver import build_table, kernel_for
from dicemath.games.pegs_fives.fullboard.guides import (
    build_guide, compare_estimate, compare_tables, distilled_guide_digest, distilled_slab_values, fitted_slab_values)
from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS, BoardLayout
from dicemath.core.stats import wilson_interval
from dicemath.games.pegs_fives.fullboard.simulate import simulate_games, table_policy, unfinished_games
from dicemath.games.pegs_fives.rules import PRESETS
from dicemath.games.pegs_fives.state import SafeGreedy, greedy_policy
from dicemath.games.pegs_fives.turn import stays_forever
from dicemath.studies.full_board_distill import Sample, distill, table_sample
from dicemath.studies.full_board_results import RESULTS, first_throw_table, read_results, update_results

POLICIES = ("greedy", "safe_greedy", "fitted", "distilled")
"""What ``evaluate`` measures: kernel policies, and lookaheads named by their guide."""


def _load() -> dict:
    return {"loadavg": [round(x, 2) for x in os.getloadavg()]}


def _board_list(layout: BoardLayout, index: int) -> list[int]:
    return list(layout.board(index))


def run_build(rules, directory: Path) -> None:
    """Build or resume the optimal full table in ``directory``."""
    build_table(rules, FULL_ROWS[:rules.rows], out=directory)


def run_verify(rules, table: storage.Table, results: Path, boards: int = 20_000, seed: int = 7) -> None:
    """Recompute ``boards`` random boards of the table with the current kernel and record
    the agreement (a table built by an earlier revision of the code stays trusted)."""
    layout = table.layout
    kernel = kernel_for(rules, layout.rows)
    scratch = np.load(table.store.path(storage.VALUES), mmap_mode="c")           # copy on write
    chosen = np.unique(np.random.default_rng(seed).integers(0, layout.last, boards))
    kernel.solve(scratch, chosen)
    difference = np.abs(scratch[chosen].astype(np.float64) - np.asarray(table.values[chosen], dtype=np.float64))
    update_results(rules.name, "verify", {"boards": int(len(chosen)), "seed": seed,
                                          "identical": float(np.mean(difference == 0)),
                                          "max_abs_difference": float(difference.max())}, results)


def run_optimal(rules, table: storage.Table, results: Path, games: int, seed: int) -> None:
    """Record the optimum from the empty board, the first throws and the turn distribution."""
    layout = table.layout
    game = rules.name
    update_results(game, "board", {"rows": list(layout.rows), "boards": layout.size}, results)
    record = {"expected_turns": table.value(layout.board(0)), "dtype": table.dtype,
              "build_cpu_seconds": round(table.cpu_seconds, 1)}
    if table.wall_seconds:
        record["build_wall_seconds"] = round(table.wall_seconds, 1)
    update_results(game, "optimal", record, results)
    advisor = ExactAdvisor(rules, layout.rows, table.values, "table")
    update_results(game, "first_throws", first_throw_table(rules, advisor, layout.board(0)), results)
    start = time.perf_counter()
    turns = simulate_games(rules, table_policy(rules, layout, table.values), games, seed, board=layout.board(0))
    counts = np.bincount(turns)
    update_results(game, "turns", {
        "games": games, "seed": seed, "mean": float(turns.mean()),
        "standard_error": float(turns.std(ddof=1) / np.sqrt(games)),
        "counts": {str(t): int(c) for t, c in enumerate(counts) if c},
        "seconds": round(time.perf_counter() - start, 1), **_load()}, results)


SAMPLES = Path(__file__).resolve().parent / "data"
"""Where the distillation samples are committed."""


def sample_path(rules) -> Path:
    return SAMPLES / f"{rules.name}_distill_sample.npz"


def run_sample(rules, table: storage.Table) -> None:
    """Draw the training sample from the table and write it beside this script."""
    sample = table_sample(table.layout, table.values)
    path = sample_path(rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    sample.save(path)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {len(sample.targets)} boards)")


def run_distill(rules, out: Path, results: Path, hidden: tuple[int, int] = (64, 32), epochs: int = 24) -> None:
    """Train the distilled model on the committed sample, write it to ``out`` and record its
    error on the sample's held-out boards."""
    sample = Sample.read(sample_path(rules))
    layout = BoardLayout(rules, FULL_ROWS[:rules.rows])
    start = time.perf_counter()
    model = distill(layout, sample, hidden=hidden, epochs=epochs)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    cut = len(sample.targets) - sample.held_out
    boards = (sample.boards[cut:].astype(np.int64)[:, None] // np.array(layout.strides)) % layout.base
    error = model.values(boards) - sample.targets[cut:]
    update_results(rules.name, "model_distilled_held_out", {
        "boards": int(sample.held_out), "rms": float(np.sqrt(np.mean(error ** 2))),
        "max_abs": float(np.abs(error).max()), "bytes": out.stat().st_size, "hidden": list(hidden), "epochs": epochs,
        "train_seconds": round(time.perf_counter() - start, 1)}, results)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")


def run_model(rules, table: storage.Table, name: str, model_file: Path, results: Path) -> None:
    """Record the error of the value estimate ``name`` (``fitted`` or ``distilled``) over every
    board of the table."""
    slab_values, _ = _guide_source(rules, name, model_file)
    estimate = board_value(rules) if name == "fitted" else DistilledValue.read(rules, model_file)
    layout = table.layout
    start = time.perf_counter()
    stats = compare_estimate(table.values, layout, slab_values)
    update_results(rules.name, f"model_{name}", {
        "boards": stats["boards"], "rms": stats["rms"], "max_abs": stats["max_abs"],
        "max_abs_board": _board_list(layout, stats["max_abs_board"]), "mean_relative": stats["mean_relative"],
        "empty_board": float(estimate(layout.board(0))), "seconds": round(time.perf_counter() - start, 1)}, results)


def _guide_source(rules, name: str, model_file: Path):
    """``(slab_values, digest)`` of the guide named ``name`` (see :func:`build_guide`)."""
    if name == "fitted":
        value = board_value(rules)
        return (lambda split: fitted_slab_values(value, split)), hashlib.sha256(repr(value).encode()).hexdigest()[:16]
    model = DistilledValue.read(rules, model_file)
    return (lambda split: distilled_slab_values(model, split)), distilled_guide_digest(model)


def run_evaluate(rules, layout: BoardLayout, table: storage.Table | None, policy: str, *, results: Path, work: Path,
                 guides: Path, policy_table: Path | None, model_file: Path, keep: bool) -> None:
    """Evaluate ``policy`` exactly over every board of ``layout`` and record it; with the
    optimal ``table`` also the gaps board by board (without it, on a machine that does not
    hold the table, the expected turns alone: the sweep needs no table)."""
    record: dict = {}
    guide_dir = None
    run_start = time.perf_counter()
    if policy == "greedy" and policy_table is not None:
        directory = policy_table
    else:
        directory = work / f"{rules.name}-{policy}"
        kernel_policy = policy
        if policy in ("fitted", "distilled"):
            slab_values, digest = _guide_source(rules, policy, model_file)
            guide_dir = guides / f"{rules.name}-guide-{policy}"
            start = time.perf_counter()
            build_guide(rules, layout.rows, guide_dir, slab_values, name=policy, digest=digest)
            record["guide_seconds"] = round(time.perf_counter() - start, 1)
            kernel_policy = "lookahead"
        start = time.perf_counter()
        build_table(rules, layout.rows, out=directory, policy=kernel_policy, guide=guide_dir,
                    dtype=None if table is None else table.dtype)
        record["sweep_seconds"] = round(time.perf_counter() - start, 1)
        record["wall_seconds"] = round(time.perf_counter() - run_start, 1)        # guide and sweep
        record["peak_resident_gb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)   # KiB
        record.update(_load())
    evaluated = storage.open_table(directory, rules)
    record["sweep_cpu_seconds"] = round(evaluated.cpu_seconds, 1)
    empty = evaluated.value(layout.board(0))
    record["expected_turns"] = empty if np.isfinite(empty) else None      # None: the policy never finishes
    guide = storage.open_table(guide_dir, rules) if guide_dir is not None else None
    if table is not None:
        others = {"policy": evaluated.values}
        if guide is not None:
            others["guide"] = guide.values
        start = time.perf_counter()
        compared = compare_tables(table.values, others)
        record["compare_seconds"] = round(time.perf_counter() - start, 1)
        policy_stats = compared["policy"]
        record.update({"mean_relative_gap": policy_stats["mean_relative"],
                       "max_relative_gap": policy_stats["max_relative"]})
        if policy_stats["infinite"]:
            record["never_finishes_boards"] = policy_stats["infinite"]    # value inf: the policy loops forever
        if guide is not None:
            stats = compared["guide"]
            update_results(rules.name, f"model_{policy}", {
                "boards": stats["boards"], "rms": stats["rms"], "max_abs": stats["max_abs"],
                "max_abs_board": _board_list(layout, stats["max_abs_board"]),
                "mean_relative": stats["mean_relative"], "empty_board": guide.value(layout.board(0))}, results)
    else:
        infinite = sum(int(np.isinf(evaluated.values[i:i + 6 ** 8]).sum()) for i in range(0, layout.size, 6 ** 8))
        if infinite:
            record["never_finishes_boards"] = infinite
    earlier = read_results(results).get("games", {}).get(rules.name, {}).get(f"policy_{policy}", {})
    for kept in ("plain_lookahead", "previous_sweep"):  # earlier kernels' or guides' evaluations, kept with it
        if kept in earlier:
            record[kept] = earlier[kept]
    update_results(rules.name, f"policy_{policy}", record, results)
    if guide is not None:
        guide.close()
    evaluated.close()
    if not keep:
        for path in (directory if directory != policy_table else None, guide_dir):
            if path is not None:
                shutil.rmtree(path)


def run_traps(rules, policy: str, results: Path, games: int, seed: int, max_turns: int) -> None:
    """Record whether ``policy`` (greedy or safe greedy) traps games forever (see the module
    docstring); a proven trap also records the policy's expected turns as infinite."""
    play = greedy_policy if policy == "greedy" else SafeGreedy(rules.goal)
    start = time.perf_counter()
    finished, stopped = unfinished_games(rules, play, games, seed, max_turns=max_turns)
    traps = sorted({board for board in stopped if stays_forever(rules, board, play)})
    trapped = sum(board in set(traps) for board in stopped)
    low, high = wilson_interval(trapped, games)
    record = {"games": games, "seed": seed, "max_turns": max_turns, "trapped_games": trapped,
              "unproven_games": len(stopped) - trapped, "trapped_share": trapped / games,
              "trapped_share_95": [low, high], "trap_boards": [list(b) for b in traps[:20]],
              "trap_board_count": len(traps), "finished_mean_turns": float(finished.mean()),
              "finished_standard_error": float(finished.std(ddof=1) / np.sqrt(len(finished))),
              "seconds": round(time.perf_counter() - start, 1), **_load()}
    update_results(rules.name, f"traps_{policy}", record, results)
    found = read_results(results).get("games", {}).get(rules.name, {}).get(f"policy_{policy}")
    if traps and found is None:
        update_results(rules.name, f"policy_{policy}", {"expected_turns": None, "proof": f"traps_{policy}"}, results)
    print(f"traps {policy}: {trapped} of {games} games trapped on {len(traps)} boards; "
          f"{len(stopped) - trapped} stopped elsewhere")


def _hidden(text: str) -> tuple[int, int]:
    widths = tuple(int(w) for w in text.split(","))
    if len(widths) != 2 or min(widths) < 1:
        raise SystemExit(f"--hidden takes two widths, e.g. 128,64; got {text!r}")
    return widths


def _done(results: Path, game: str, step: str, policy: str | None) -> bool:
    record = read_results(results).get("games", {}).get(game, {})
    key = {"optimal": "turns", "model": f"model_{policy}", "evaluate": f"policy_{policy}",
           "traps": f"traps_{policy}"}.get(step)
    return key is not None and key in record


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(PRESETS))
    parser.add_argument("step", choices=("build", "verify", "optimal", "sample", "distill", "model", "traps",
                                         "evaluate", "all"))
    parser.add_argument("policy", nargs="?", choices=POLICIES)
    parser.add_argument("--table", type=Path, help="the finished optimal table (default: built in --work "
                        "for a reduced board)")
    parser.add_argument("--open", default=None, help="open rows of a reduced board, e.g. 4,5,6,7,8,9,10,11")
    parser.add_argument("--work", type=Path, default=Path("/work/tables/tmp_eval"))
    parser.add_argument("--guides", type=Path, default=Path("/dev/shm/dicemath_guides"))
    parser.add_argument("--policy-table", type=Path, default=None)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--model", type=Path, default=None, help="the distilled model file (default: shipped)")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--hidden", default="64,32", help="the distilled network's hidden widths (default 64,32)")
    parser.add_argument("--epochs", type=int, default=24, help="the distilled network's training epochs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the evaluated tables and guides")
    parser.add_argument("--max-turns", type=int, default=2_000, help="traps: turns before a game counts as "
                        "stopped (default 2000)")
    parser.add_argument("--force", action="store_true", help="redo a recorded step")
    args = parser.parse_args(argv)
    rules = PRESETS[args.game]
    rows = tuple(int(r) for r in args.open.split(",")) if args.open else FULL_ROWS[:rules.rows]
    model_file = args.model or model_path(rules)
    full = len(rows) == rules.rows
    if args.step == "distill":
        if not full:
            raise SystemExit("the model is distilled from the full table's sample only")
        if args.force or not model_file.exists():
            run_distill(rules, model_file, args.results, _hidden(args.hidden), args.epochs)
        else:
            print("distill: the model exists (--force redoes it)")
        return
    if args.step == "traps":
        if args.policy not in ("greedy", "safe_greedy"):
            raise SystemExit("traps takes a fixed policy: greedy or safe_greedy")
        if args.force or not _done(args.results, rules.name, "traps", args.policy):
            run_traps(rules, args.policy, args.results, args.games, args.seed, args.max_turns)
        else:
            print(f"traps {args.policy}: recorded already (--force redoes it)")
        return
    if args.step in ("build", "all") and full:
        if args.table is None:
            raise SystemExit("give --table DIR: where the full table is built (8.7 GB)")
        run_build(rules, args.table)
        if args.step == "build":
            return
    if args.table is None and full and args.step == "evaluate":
        run_evaluate(rules, BoardLayout(rules, rows), None, args.policy, results=args.results, work=args.work,
                     guides=args.guides, policy_table=args.policy_table, model_file=model_file, keep=args.keep)
        return
    if args.table is None:
        if full:
            raise SystemExit("the full optimal table is not built here: give --table DIR")
        args.table = build_table(rules, rows, out=args.work / f"{rules.name}-optimal-{'-'.join(map(str, rows))}")
    table = storage.open_table(args.table, rules)
    if table.layout.rows != BoardLayout(rules, rows).rows:
        raise SystemExit(f"{args.table} covers rows {list(table.layout.rows)}, not {list(rows)}")
    if args.step == "sample" and not full:
        raise SystemExit("the sample is drawn from the full table only")
    steps = ["optimal", *(["sample", "distill", ("model", "distilled"), ("model", "fitted")] if full else []),
             *(("evaluate", p) for p in POLICIES)] \
        if args.step == "all" else [(args.step, args.policy) if args.step in ("evaluate", "model") else args.step]
    for step in steps:
        step, policy = step if isinstance(step, tuple) else (step, None)
        if step == "evaluate" and policy is None:
            raise SystemExit("evaluate needs a policy: " + ", ".join(POLICIES))
        if step == "model":
            policy = policy or "distilled"
            if policy not in ("fitted", "distilled"):
                raise SystemExit("model takes a value estimate: fitted or distilled")
        if policy == "distilled" and args.step == "all" and not model_file.exists():
            print(f"evaluate distilled: skipped, no distilled {rules.name} model ({model_file}) to guide it")
            continue
        if not args.force and (_done(args.results, rules.name, step, policy)
                               or (step == "distill" and model_file.exists())
                               or (step == "sample" and sample_path(rules).exists())):
            print(f"{step} {policy or ''}: recorded already (--force redoes it)")
            continue
        start = time.perf_counter()
        if step == "verify":
            run_verify(rules, table, args.results)
        elif step == "optimal":
            run_optimal(rules, table, args.results, args.games, args.seed)
        elif step == "sample":
            run_sample(rules, table)
        elif step == "distill":
            run_distill(rules, model_file, args.results, _hidden(args.hidden), args.epochs)
        elif step == "model":
            run_model(rules, table, policy, model_file, args.results)
        else:
            run_evaluate(rules, table.layout, table, policy, results=args.results, work=args.work, guides=args.guides,
                         policy_table=args.policy_table, model_file=model_file, keep=args.keep)
        print(f"{step} {policy or ''}: {time.perf_counter() - start:.0f} s, load {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
