# SPDX-License-Identifier: Apache-2.0
"""python -m simdbridge against python -m json.tool: the same output, standard error and exit
status for every option, on corpus files, JSON Lines, invalid input and bad arguments."""
import subprocess
import sys

import pytest

from conftest import corpus_files, data_dir

LAYOUTS = [[], ["--indent", "2"], ["--indent", "0"], ["--tab"], ["--no-indent"], ["--compact"]]
FLAGS = [[], ["--sort-keys"], ["--no-ensure-ascii"], ["--sort-keys", "--no-ensure-ascii"]]


def run(module, args, stdin=None, cwd=None):
    done = subprocess.run([sys.executable, "-m", module, *args], input=stdin, capture_output=True, cwd=cwd)
    # argparse names the program in its messages, and aligns its usage lines on the name.
    err = done.stderr.replace(b"python -m simdbridge", b"PROG").replace(b"python -m json.tool", b"PROG")
    err = b" ".join(err.split()) if err.startswith(b"usage") else err
    if err.startswith(b"Traceback"):
        # An error json.tool does not catch (RecursionError) ends in a traceback through each
        # tool's own code: the exception's line is what must agree.
        err = err.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    return done.returncode, done.stdout, err


def same(args, stdin=None, cwd=None):
    expected = run("json.tool", args, stdin, cwd)
    assert run("simdbridge", args, stdin, cwd) == expected, args
    return expected


@pytest.mark.parametrize("path", corpus_files()[::3], ids=lambda p: p.name)
def test_corpus_file_every_layout(path):
    for layout in LAYOUTS:
        assert same([str(path), *layout])[0] == 0
    for flags in FLAGS[1:]:
        same([str(path), *flags])


def test_standard_input_and_every_flag_with_every_layout():
    doc = '{"b": [1, 2.5, -0.0, 1e400, NaN, "\\u00e9\\ud83d\\ude00", {}, []], "a": {"z": null, "y": true}}'.encode()
    for layout in LAYOUTS:
        for flags in FLAGS:
            assert same([*flags, *layout], stdin=doc)[0] == 0


def test_outfile(tmp_path):
    src = data_dir("jsonexamples") / "twitter.json"
    for module in ("json.tool", "simdbridge"):
        out = tmp_path / module
        assert run(module, [str(src), str(out), "--sort-keys"])[0] == 0
    assert (tmp_path / "json.tool").read_bytes() == (tmp_path / "simdbridge").read_bytes()
    # An invalid document leaves no outfile behind, as json.tool.
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": [1, 2,]}')
    for module in ("json.tool", "simdbridge"):
        assert run(module, [str(bad), str(tmp_path / ("bad-" + module))])[0] == 1
        assert not (tmp_path / ("bad-" + module)).exists()


@pytest.mark.parametrize("doc", [b'{"a": [1, 2,]}', b"", b"   ", b"[1] [2]", b"\xef\xbb\xbf[1]", b'["\xff"]',
                                 b'{"a":' * 100_000, b'"\\ud800"', b"[1e999, -Infinity]", b"\r\n[1,\r\n 2]\r\n"],
                         ids=["trailing-comma", "empty", "blank", "two-documents", "bom", "bad-utf8", "deep",
                              "lone-surrogate", "big-numbers", "crlf"])
def test_invalid_and_odd_input(doc):
    same([], stdin=doc)
    same(["--compact"], stdin=doc)


def test_json_lines():
    lines = b'{"a": 1}\n[2, 3]\r\n"x"\n\n{"b": 2}\n'
    code, out, _ = same(["--json-lines", "--compact"], stdin=lines)
    assert code == 1 and out == b'{"a":1}\n[2,3]\n"x"\n'  # the blank line is an error, after three documents
    same(["--json-lines"], stdin=b'{"a": 1}\n{"b": [1, 2]}\n')
    same(["--json-lines", "--no-indent", "--sort-keys"], stdin=(data_dir("ndjson") / "amazon_cellphones.ndjson").read_bytes()[:200_000].rsplit(b"\n", 1)[0] + b"\n")


@pytest.mark.parametrize("args", [["--indent", "x"], ["--tab", "--compact"], ["no-such-file.json"], ["--bogus"], ["-h"]],
                         ids=["bad-indent", "exclusive", "missing-file", "unknown-option", "help"])
def test_bad_arguments_exit_as_json_tool(args):
    got = run("simdbridge", args)
    expected = run("json.tool", args)
    assert got[0] == expected[0]
    if args != ["-h"]:  # the help's words are the tool's own; its options are json.tool's
        assert got[1:] == expected[1:]
    else:
        usage = lambda text: b" ".join(text.split(b"\n\n")[0].split()).replace(b"simdbridge", b"json.tool")  # noqa: E731
        assert usage(got[1]) == usage(expected[1])


def test_broken_pipe_exits_quietly():
    src = str(data_dir("jsonexamples") / "canada.json")
    done = subprocess.run(f"{sys.executable} -m simdbridge {src} | head -c 10 >/dev/null", shell=True, capture_output=True)
    assert b"Traceback" not in done.stderr
