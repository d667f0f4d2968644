"""``dicemath cache``: what the on-disk cache holds, and clearing it.

The cache (``$DICEMATH_CACHE_DIR``, else ``~/.cache/dicemath``) keeps tables computed on
first use (:mod:`dicemath.core.cache`) and the folders of built tables (the full-board
tables of Pegs and Fives, the bear-off database). Everything in it can be computed again.
"""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, emit, text_table
from dicemath.core.cache import cache_dir, cache_entries, clear_cache


def register(subparsers) -> None:
    """Add ``dicemath cache`` (``list``, the default, and ``clear``)."""
    cache = subparsers.add_parser("cache", help="list or clear the on-disk cache of computed tables")
    commands = cache.add_subparsers(dest="cache_command")
    listing = commands.add_parser("list", help="what the cache holds: size, what it is, how long it took")
    add_json_flag(listing)
    listing.set_defaults(func=run_list)
    clear = commands.add_parser("clear", help="remove cached tables (all, or those whose name starts with NAME)")
    clear.add_argument("names", nargs="*", metavar="NAME", help="names (prefixes) to remove; none: everything")
    add_json_flag(clear)
    clear.set_defaults(func=run_clear)
    add_json_flag(cache)
    cache.set_defaults(func=run_list)


def _entry(entry) -> dict:
    return {"name": entry.name, "path": str(entry.path), "bytes": entry.bytes, "seconds": entry.seconds,
            "params": entry.params}


def _count(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def run_list(args) -> int:
    entries = cache_entries()
    result = {"folder": str(cache_dir()), "bytes": sum(e.bytes for e in entries),
              "entries": [_entry(e) for e in entries]}

    def render(r: dict) -> str:
        if not r["entries"]:
            return f"the cache in {r['folder']} is empty"
        rows = [[e["name"], _megabytes(e["bytes"]), "?" if e["seconds"] is None else f"{e['seconds']:,.1f} s"]
                for e in r["entries"]]
        return (f"{r['folder']}: {_count(len(rows))}, {_megabytes(r['bytes'])}\n"
                + text_table(["what", "size", "took to build"], rows)
                + "\n`dicemath cache clear [NAME ...]` removes them (they are rebuilt when needed)")

    emit(result, getattr(args, "json", False), render)
    return 0


def run_clear(args) -> int:
    removed = clear_cache(args.names or None)
    result = {"folder": str(cache_dir()), "removed": [_entry(e) for e in removed],
              "bytes": sum(e.bytes for e in removed)}
    emit(result, args.json,
         lambda r: f"removed {_count(len(r['removed']))} ({_megabytes(r['bytes'])}) from {r['folder']}")
    return 0
