# SPDX-License-Identifier: Apache-2.0
"""Defects found by probing the package with hostile input, each pinned by the input that found
it: a str flagged ASCII that held UTF-8 (a crash when iterated), stream verdicts that depended
on where the internal batches fell, wrong values from a fallback, misleading messages, and an
error path that was slow in Python."""
import json
import time

import pytest

import simdbridge


@pytest.mark.parametrize("kwargs", [
    {"separators": ("é", ":")},
    {"separators": (",", "→")},
    {"indent": "→"},
    {"indent": "  ", "separators": ("\u2028", ": ")},
    {"indent": "é", "ensure_ascii": False},
    {"separators": ("\ud800", ":")},  # a lone surrogate: json writes it as given
    {"indent": "\udfff"},
])
def test_non_ascii_separators_and_indent_give_json_s_str(kwargs):
    value = {"a": [1, "ü", {"b": None}], "c": "\U0001f600"}
    ours = simdbridge.dumps(value, **kwargs)
    assert ours == json.dumps(value, **kwargs)
    assert ours.isascii() == json.dumps(value, **kwargs).isascii()
    assert "".join(c for c in ours) == ours  # iterating the str read past it: a segfault
    assert [ord(c) for c in ours] == [ord(c) for c in json.dumps(value, **kwargs)]


def test_a_number_at_the_end_of_a_batch_must_not_touch_a_string():
    # A number ending exactly where the core's 1 MB batch ends, followed directly by "x", was
    # accepted; one byte either way it was refused.
    batch = 1 << 20
    for shift in (-1, 0, 1):
        head = b"{}\n" * ((batch - 16) // 3)
        head += b" " * (batch + shift - 2 - len(head))
        data = head + b'12"x"'
        with pytest.raises(simdbridge.StreamError) as e:
            simdbridge.checksum(data, stream=True)
        assert e.value.offset == len(data) - 3
        assert "invalid number" in str(e.value)
        with pytest.raises(simdbridge.StreamError):
            list(simdbridge.loads_many(data))


@pytest.mark.parametrize("data", ['{"a": 1e400}', '"abc"', "123456789012345678901234567890", " 1e999"])
def test_format_array_over_a_document_that_is_not_an_array(data):
    # Through json's fallback (a number past the double range) the document was iterated:
    # '{"a": 1e400}' gave ['a'], a string its characters.
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(data, format="array"))
    assert "expected an array" in str(e.value)
    assert e.value.offset == len(data) - len(data.lstrip())
    assert list(simdbridge.loads_many("[1e400, 2]", format="array")) == [float("inf"), 2]


def test_messages_say_what_is_wrong():
    with pytest.raises(UnicodeEncodeError):  # was "must be str, ..., not str"
        simdbridge.checksum('"\ud800"')
    with pytest.raises(UnicodeEncodeError):
        list(simdbridge.loads_many('"\ud800"'))
    assert simdbridge.loads('"\ud800"') == json.loads('"\ud800"')  # json reads it: so do we
    with pytest.raises(simdbridge.StreamError) as e:  # was "a value is not of its column's type"
        list(simdbridge.loads_many("1", format="array"))
    assert "expected an array" in str(e.value)
    with pytest.raises(TypeError) as t:
        simdbridge.checksum(12)
    assert "not int" in str(t.value)


def test_a_stream_error_at_the_end_of_a_long_str_is_raised_quickly():
    # The character position was counted byte by byte in Python: 5 s for 80 MB.
    doc = "é" + "[1]\n" * 10_000_000 + "[1,]"
    start = time.perf_counter()
    error = simdbridge.StreamError("expected a value", doc, len(doc.encode()) - 1, 10_000_001)
    elapsed = time.perf_counter() - start
    assert error.pos == len(doc) - 1
    assert elapsed < 1.0, elapsed


@pytest.mark.parametrize("unit", [b"7\n", b"-1.5e3\n", b'{"a":1}\n-2\n'])
def test_a_stream_of_small_numbers_is_read_in_linear_time(unit):
    # simdjson 3.0.1's parse_many copies the rest of its batch for each number at the root, time
    # that grows with the square of the batch (the core leaves parse_many there).
    data = unit * ((4 << 20) // len(unit))
    start = time.perf_counter()
    simdbridge.checksum(data, stream=True)
    elapsed = time.perf_counter() - start
    assert elapsed < 10.0, elapsed
    head = unit * 1000
    assert list(simdbridge.loads_many(head)) == [json.loads(line) for line in head.splitlines()]
