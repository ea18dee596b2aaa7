# SPDX-License-Identifier: Apache-2.0
"""JSONTestSuite through the package's ways in besides loads (test_loads.py holds loads to json):
parse answers as loads does (json's values and errors, NaN included), and checksum and
json_to_msgpack, which hold to RFC 8259 as the core does, give each file one outcome: each y_
file accepted with loads' value, each n_ file refused at the same byte, each i_ file a value or a
JSONDecodeError at a byte of the file, nothing else."""
import json

import pytest

import simdbridge
from conftest import data_dir, same


def minefield():
    return sorted(data_dir("jsonchecker", "minefield").glob("*.json"))


def plain(view):
    """A lazy view as the Python values loads builds (loops, not comprehensions: a comprehension
    is a frame of its own, and i_structure_500_nested_arrays would pass the recursion limit)."""
    if isinstance(view, simdbridge.Object):
        out = {}
        for k, v in view.items():
            out[k] = plain(v)
        return out
    if isinstance(view, simdbridge.Array):
        items = []
        for v in view:
            items.append(plain(v))
        return items
    return view


def outcome(fn, data):
    """('ok', value) or ('error', type, pos), the position checked to lie in the file."""
    try:
        return "ok", fn(data)
    except simdbridge.JSONDecodeError as e:
        assert 0 <= e.pos <= len(data), f"{e} at {e.pos} in {len(data)} bytes"
        return "error", type(e), e.pos
    except UnicodeDecodeError as e:  # bytes that are not UTF-8, as json.loads reports them
        assert 0 <= e.start < len(data), str(e)
        return "error", type(e), e.start
    except RecursionError as e:  # past the parser's depth json decides, as json.loads would
        return "error", type(e), str(e)


def to_msgpack_and_back(data):
    return json.loads(simdbridge.msgpack_to_json(simdbridge.json_to_msgpack(data)))


def test_the_suite_is_all_there():
    names = [p.name[:2] for p in minefield()]
    assert (names.count("y_"), names.count("n_"), names.count("i_")) == (95, 188, 35)


@pytest.mark.parametrize("path", minefield(), ids=lambda p: p.name)
def test_parse_answers_as_loads_does(path):
    data = path.read_bytes()
    # Both called from the same depth: past the parser's depth json's RecursionError names the
    # container it was in when the interpreter's limit came, which one frame more moves.
    expected = outcome(simdbridge.loads, data)
    actual = outcome(simdbridge.parse, data)
    assert actual[0] == expected[0], (actual, expected)
    if expected[0] == "ok":
        same(plain(actual[1]), expected[1])
    else:
        assert actual == expected


@pytest.mark.parametrize("path", minefield(), ids=lambda p: p.name)
def test_checksum_and_msgpack_give_a_file_one_outcome(path):
    data = path.read_bytes()
    checksum = outcome(simdbridge.checksum, data)
    msgpack = outcome(to_msgpack_and_back, data)
    if path.name.startswith("y_"):
        assert checksum[0] == "ok" and msgpack[0] == "ok", (checksum, msgpack)
        same(msgpack[1], simdbridge.loads(data))
    elif path.name.startswith("n_"):
        assert checksum[0] == "error" and checksum == msgpack, (checksum, msgpack)
