"""``dicemath cache``: what the on-disk cache holds, and clearing it.

The cache (``$DICEMATH_CACHE_DIR``, else ``~/.cache/dicemath``) keeps tables computed on
first use (:mod:`dicemath.core.cache`) and the folders of built tables (the full-board
tables of Pegs and Fives, the bear-off database). Everything in it can be computed again.

The listing tells entries apart by what they were built for (their parameters), their
format version, size and file; ``clear`` takes exact names, a table's name (all its entries)
or an entry's file name (that one), and refuses a name that is neither (exit 2, naming the
names it knows).
"""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, emit, text_table
from dicemath.core.cache import cache_dir, cache_entries, clear_cache, size_text
from dicemath.core.errors import DicemathError


def register(subparsers) -> None:
    """Add ``dicemath cache`` (``list``, the default, and ``clear``)."""
    cache = subparsers.add_parser("cache", help="list or clear the on-disk cache of computed tables")
    commands = cache.add_subparsers(dest="cache_command")
    listing = commands.add_parser("list", help="what the cache holds: size, what it is, how long it took")
    add_json_flag(listing)
    listing.set_defaults(func=run_list)
    clear = commands.add_parser("clear", help="remove cached tables (all, or those named)")
    clear.add_argument("names", nargs="*", metavar="NAME",
                       help="a table's name (all its entries) or an entry's file name, as `dicemath cache` lists "
                            "them; none: everything")
    add_json_flag(clear)
    clear.set_defaults(func=run_clear)
    add_json_flag(cache)
    cache.set_defaults(func=run_list)


def _entry(entry) -> dict:
    return {"name": entry.name, "file": entry.path.name, "path": str(entry.path), "bytes": entry.bytes,
            "seconds": entry.seconds, "params": entry.params, "format": entry.format_version}


def _count(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def run_list(args) -> int:
    entries = cache_entries()
    result = {"folder": str(cache_dir()), "bytes": sum(e.bytes for e in entries),
              "entries": [_entry(e) for e in entries]}

    def render(r: dict) -> str:
        if not r["entries"]:
            return f"the cache in {r['folder']} is empty"
        rows = [[e["name"], "?" if e["format"] is None else e["format"], size_text(e["bytes"]),
                 "?" if e["seconds"] is None else f"{e['seconds']:,.1f} s", e["file"]] for e in r["entries"]]
        head, rule, *lines = text_table(["what", "format", "size", "took to build", "file"], rows).splitlines()
        described = [f"{line}\n    built for {'?' if e['params'] is None else e['params']}"
                     for line, e in zip(lines, r["entries"])]
        return "\n".join([f"{r['folder']}: {_count(len(rows))}, {size_text(r['bytes'])}", head, rule, *described,
                          "`dicemath cache clear [NAME ...]` removes them, by what they are (every entry of it) or "
                          "by file (they are rebuilt when needed)"])

    emit(result, getattr(args, "json", False), render)
    return 0


def run_clear(args) -> int:
    """``cache clear [NAME ...]``.

    Raises:
        DicemathError: a name that is neither a table's name nor an entry's file name in the cache.
    """
    entries = cache_entries()
    known = {e.name for e in entries} | {e.path.name for e in entries}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        listed = (", ".join(sorted({e.name for e in entries})) + " (or an entry's file, as `dicemath cache` lists "
                  "them)" if entries else "none: the cache is empty")
        raise DicemathError(f"no cache entry is named {', '.join(map(repr, unknown))}; the names it knows: {listed}")
    removed = clear_cache(args.names or None)
    result = {"folder": str(cache_dir()), "removed": [_entry(e) for e in removed],
              "bytes": sum(e.bytes for e in removed)}
    emit(result, args.json,
         lambda r: f"removed {_count(len(r['removed']))} ({size_text(r['bytes'])}) from {r['folder']}")
    return 0
