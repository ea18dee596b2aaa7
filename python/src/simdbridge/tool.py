# SPDX-License-Identifier: Apache-2.0
"""python -m simdbridge: what python -m json.tool does, with the same options and output.

    $ echo '{"json": "obj"}' | python -m simdbridge
    {
        "json": "obj"
    }

It validates and pretty-prints a JSON document (or, with --json-lines, one per line), reading
infile (standard input by default) and writing outfile (standard output by default). Invalid
input exits with status 1 and json's message on standard error, line, column and position
included.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterator, Sequence, TextIO

from . import dumps, loads


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Validate and pretty-print JSON, as python -m json.tool does, with simdbridge.")
    parser.add_argument("infile", nargs="?", type=argparse.FileType(encoding="utf-8"), default=sys.stdin,
                        help="the JSON file to validate or pretty-print (default: standard input)")
    parser.add_argument("outfile", nargs="?", type=Path, default=None,
                        help="where to write the output (default: standard output)")
    parser.add_argument("--sort-keys", action="store_true", default=False,
                        help="sort the keys of every object")
    parser.add_argument("--no-ensure-ascii", dest="ensure_ascii", action="store_false",
                        help="write characters past ASCII as they are rather than as escapes")
    parser.add_argument("--json-lines", action="store_true", default=False,
                        help="read one JSON document per line; with --no-indent or --compact the "
                        "output is JSON Lines too")
    layout = parser.add_mutually_exclusive_group()
    layout.add_argument("--indent", default=4, type=int,
                        help="one item per line, indented by this many spaces (default: 4)")
    layout.add_argument("--tab", action="store_const", dest="indent", const="\t",
                        help="one item per line, indented by tabs")
    layout.add_argument("--no-indent", action="store_const", dest="indent", const=None,
                        help="everything on one line, items separated by a space")
    layout.add_argument("--compact", action="store_true",
                        help="everything on one line, with no space at all")
    return parser


def _documents(infile: TextIO, json_lines: bool) -> Iterator[Any]:
    """As json.tool reads them: a whole document before outfile is opened (so invalid input
    leaves no outfile), or, with --json-lines, a line at a time, each document written before
    the next line is read."""
    if json_lines:
        return (loads(line) for line in infile)
    return iter((loads(infile.read()),))


def main(argv: Sequence[str] | None = None, prog: str = "python -m simdbridge") -> None:
    """Runs the tool on argv (sys.argv[1:] by default); exits as json.tool does."""
    options = _parser(prog).parse_args(argv)
    dump_args: dict[str, Any] = {"sort_keys": options.sort_keys, "indent": options.indent,
                                 "ensure_ascii": options.ensure_ascii}
    if options.compact:
        dump_args["indent"] = None
        dump_args["separators"] = (",", ":")
    with options.infile as infile:
        try:
            documents = _documents(infile, options.json_lines)
            out = sys.stdout if options.outfile is None else options.outfile.open("w", encoding="utf-8")
            with out as outfile:
                for document in documents:
                    outfile.write(dumps(document, **dump_args))
                    outfile.write("\n")
        except ValueError as e:  # JSONDecodeError, or UnicodeDecodeError from reading infile
            raise SystemExit(e) from None


def run(prog: str) -> None:
    """main(), where a closed pipe on the output ends the process quietly, as json.tool's."""
    try:
        main(prog=prog)
    except BrokenPipeError as e:
        sys.exit(e.errno)


if __name__ == "__main__":
    run("python -m simdbridge.tool")
