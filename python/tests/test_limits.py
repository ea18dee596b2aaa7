# SPDX-License-Identifier: Apache-2.0
"""set_limits(): each limit passed is a LimitError naming it, with its byte offset, in every
function that parses; loads() keeps json's rules where json has them; the limits hold on every
thread; bad values are refused."""
import io
import os
import json
import pickle
import subprocess
import sys
import threading

import pytest

import simdbridge


@pytest.fixture
def limits():
    previous = simdbridge.get_limits()
    yield simdbridge.set_limits
    simdbridge.set_limits(**previous)


def test_defaults():
    assert simdbridge.get_limits() == {"max_depth": 1024, "max_number_length": 1000, "max_string_length": 0,
                                       "max_document_length": 0}


def every_parse(data):
    """What each parsing function raises (or returns) for data."""
    out = {}
    for name, call in (("checksum", lambda: simdbridge.checksum(data)),
                       ("checksum_stream", lambda: simdbridge.checksum(data, stream=True)),
                       ("loads_many", lambda: list(simdbridge.loads_many(data))),
                       ("parse_many", lambda: list(simdbridge.parse_many(data)))):
        try:
            call()
            out[name] = "ok"
        except simdbridge.LimitError as e:
            out[name] = (e.limit, e.offset)
    return out


def test_each_limit_is_its_own_error_with_its_offset(limits):
    limits(max_depth=3, max_number_length=20, max_string_length=5, max_document_length=40)
    for data, expected in (("[[[1]]]", "ok"),
                           ("[[[[1]]]]", ("max_depth", 3)),
                           ('{"a": ' + "9" * 21 + "}", ("max_number_length", 6)),
                           ('[1, "abcde", "\\u00e9\\u00e9\\u00e9"]', ("max_string_length", 13)),
                           ('{"abcdef": 1}', ("max_string_length", 1)),
                           ("[" + "1," * 25 + "1]", ("max_document_length", 40))):
        assert set(every_parse(data).values()) == {expected}, (data, every_parse(data))
    with pytest.raises(simdbridge.LimitError) as e:
        simdbridge.checksum(b"[[[[1]]]]")
    assert isinstance(e.value, simdbridge.StreamError) and isinstance(e.value, json.JSONDecodeError)
    assert "depth limit" in str(e.value) and e.value.limit == "max_depth"
    copy = pickle.loads(pickle.dumps(e.value))
    assert (copy.limit, copy.offset, str(copy)) == (e.value.limit, e.value.offset, str(e.value))


def test_in_a_stream_each_record_is_limited_not_the_whole_input(limits):
    limits(max_document_length=10)
    data = b'{"a":1}\n[1,2,3]\n' * 100
    assert len(list(simdbridge.loads_many(data))) == 200
    with pytest.raises(simdbridge.LimitError) as e:
        list(simdbridge.loads_many(data + b'  {"a":123456}\n'))
    assert (e.value.limit, e.value.offset, e.value.document) == ("max_document_length", len(data) + 12, 201)


@pytest.mark.parametrize("read", [simdbridge.loads, lambda d: simdbridge.parse(d)], ids=["loads", "parse"])
def test_loads_and_parse_follow_json_where_json_has_a_rule(limits, read):
    def plain(v):
        return v.as_list() if isinstance(v, simdbridge.Array) else v
    # Numbers: json's int() limit, not max_number_length.
    assert read("9" * 2000) == json.loads("9" * 2000)
    with pytest.raises(ValueError) as e:
        read("9" * 5000)
    with pytest.raises(ValueError) as j:
        json.loads("9" * 5000)
    assert type(e.value) is type(j.value)
    # Nesting: json's RecursionError, at max_depth where it is set below the default.
    limits(max_depth=5)
    assert plain(read("[[[[[1]]]]]")) == [[[[[1]]]]]
    with pytest.raises(RecursionError) as r:
        read("[[[[[[1]]]]]]")
    assert "max_depth=5" in str(r.value)
    # The string and document lengths, which json does not have: a LimitError.
    limits(max_depth=1024, max_string_length=3)
    with pytest.raises(simdbridge.LimitError) as s:
        read('["abc", "abcd"]')
    assert (s.value.limit, s.value.offset) == ("max_string_length", 8)
    limits(max_string_length=0, max_document_length=8)
    assert plain(read("[1,2,3]")) == [1, 2, 3]
    with pytest.raises(simdbridge.LimitError) as d:
        read("[1,2,3,4]")
    assert (d.value.limit, d.value.offset) == ("max_document_length", 8)


def test_limits_hold_on_every_thread(limits):
    limits(max_depth=2)
    seen = []

    def work():
        for _ in range(50):
            try:
                simdbridge.checksum("[[[1]]]")
                seen.append("ok")
            except simdbridge.LimitError as e:
                seen.append(e.limit)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == ["max_depth"] * 200
    limits(max_depth=1024)
    assert simdbridge.checksum("[[[1]]]") > 0


def test_a_huge_depth_limit_allocates_by_the_document(limits):
    limits(max_depth=2**32 - 1)
    assert simdbridge.checksum("[1]") == simdbridge.checksum(b"[1]")
    deep = "[" * 100_000 + "]" * 100_000
    assert simdbridge.checksum(deep) > 0


@pytest.mark.parametrize("kwargs,error", [
    ({"max_depth": 0}, ValueError), ({"max_depth": 2**32}, ValueError), ({"max_number_length": -1}, ValueError),
    ({"max_document_length": 2**64}, ValueError), ({"max_depth": "5"}, TypeError), ({"max_depth": True}, TypeError),
])
def test_bad_values_are_refused(kwargs, error, limits):
    before = simdbridge.get_limits()
    with pytest.raises(error):
        limits(**kwargs)
    assert simdbridge.get_limits() == before


class Endless(io.RawIOBase):
    """'[1,1,1,...' for a megabyte, a few bytes a call (as a pipe or socket gives them)."""

    def __init__(self):
        self.taken = 0

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), 3, (1 << 20) - self.taken)
        for i in range(n):
            b[i] = ord("[" if self.taken == 0 else "1" if self.taken % 2 else ",")
            self.taken += 1
        return n


def test_load_reads_no_further_than_the_document_limit(limits, tmp_path):
    limits(max_document_length=20)
    endless = Endless()
    with pytest.raises(simdbridge.LimitError) as e:
        simdbridge.load(endless)
    assert (e.value.limit, e.value.offset, endless.taken) == ("max_document_length", 20, 21)
    # The same error as loads() of the whole document, from bytes, text, and a file.
    longer = "[" + "1," * 12 + "1]"
    with pytest.raises(simdbridge.LimitError) as whole:
        simdbridge.loads(longer)
    path = tmp_path / "longer.json"
    path.write_text(longer)
    for call in (lambda: simdbridge.load(io.BytesIO(longer.encode())), lambda: simdbridge.load(io.StringIO(longer)),
                 lambda: simdbridge.load_file(path), lambda: simdbridge.parse_file(path)):
        with pytest.raises(simdbridge.LimitError) as part:
            call()
        assert (part.value.limit, part.value.offset, str(part.value)) == ("max_document_length", 20, str(whole.value))
    # A document of the limit's length reads whole, also from a stream that gives a few bytes a call;
    # its characters are counted as bytes (UTF-8), however many a read returns.
    exact = "[" + "1," * 8 + "11]"
    assert len(exact) == 20
    assert simdbridge.load(io.BufferedReader(io.BytesIO(exact.encode()), buffer_size=1)) == [1] * 8 + [11]
    assert simdbridge.load(io.StringIO('["\u00e9\u00e9\u00e9\u00e9"]')) == ["\u00e9" * 4]
    with pytest.raises(simdbridge.LimitError):
        simdbridge.load(io.StringIO('["' + "\u00e9" * 9 + '"]'))  # 11 characters, 22 bytes
    with pytest.raises(json.JSONDecodeError):  # an empty stream: what json.load raises
        simdbridge.load(io.BytesIO(b""))


DEEP = """
import sys, threading, simdbridge
simdbridge.set_limits(max_depth=2**32 - 1)
deep = "[" * 1_000_000 + "]" * 1_000_000
got = []

def each():
    for name, call in (("loads", lambda: simdbridge.loads(deep)), ("bytes", lambda: simdbridge.loads(deep.encode())),
                       ("view", lambda: simdbridge.parse(deep).as_list()),
                       ("loads_many", lambda: list(simdbridge.loads_many(deep)))):
        try:
            call()
            got.append((name, "returned"))
        except RecursionError as e:
            got.append((name, "RecursionError" if "stack" in str(e) else str(e)))

each()
threading.stack_size(256 << 10)
t = threading.Thread(target=each)
t.start()
t.join()
print(got)
"""


def test_nesting_past_the_stack_is_a_recursion_error_not_a_crash():
    # Under a max_depth raised far past the default, loads built a document nested a million deep
    # by recursion until the C stack overflowed (a segfault); it stops where the stack ends.
    out = subprocess.run([sys.executable, "-c", DEEP], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str([(n, "RecursionError") for n in ("loads", "bytes", "view", "loads_many")] * 2)


def test_documents_sharing_a_line_past_the_limit_are_all_read_from_a_file(limits):
    # A file read in blocks, under max_document_length: a block with no line end in more bytes
    # than the limit was taken as the stream's last, and the documents after it were lost
    # without an error (512 of 10,000 read).
    limits(max_document_length=1000)
    data = b'{"a":1} ' * 10_000
    for block_size in (4096, 1 << 20):
        assert len(list(simdbridge.loads_many(io.BytesIO(data), block_size=block_size))) == 10_000
    # A document past the limit: the error where the whole input has it, from a file as from bytes.
    longer = b"[" + b"1," * 15_000 + b"1]"
    for source in (lambda: longer, lambda: io.BytesIO(longer)):
        with pytest.raises(simdbridge.LimitError) as e:
            list(simdbridge.loads_many(source(), block_size=4096))
        assert (e.value.offset, e.value.limit) == (1000, "max_document_length")


class Zeros(io.RawIOBase):
    """`head`, then zero bytes without end (as /dev/zero): counts what was taken."""

    def __init__(self, head):
        self.head, self.taken = head, 0

    def readable(self):
        return True

    def readinto(self, b):
        n = len(b)
        b[:n] = (self.head[self.taken:] + bytes(n))[:n]
        self.taken += n
        return n


@pytest.mark.parametrize("format, head, offset", [
    ("lines", b"", 0), ("lines", b'[1]\n{"a":2}\n', 12), ("json_seq", b"\x1e[1]\n\x1e", 6),
])
def test_a_record_with_no_end_is_refused_once_it_goes_wrong(format, head, offset):
    # With no document limit, a lines or json_seq record with no end was read until memory ran
    # out (a MemoryError from /dev/zero); its error now comes within a few blocks.
    source = Zeros(head)
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(source, format=format, block_size=4096))
    assert e.value.offset == offset
    assert source.taken < 1 << 20
    with pytest.raises(simdbridge.StreamError) as whole:
        list(simdbridge.loads_many(head + bytes(100), format=format))
    assert (whole.value.offset, str(whole.value)) == (e.value.offset, str(e.value))


SPACES = """
import io, resource, simdbridge

class Spaces(io.RawIOBase):
    # `head`, 256 MB of spaces with no line end, then `tail`.
    def __init__(self, head, tail):
        self.chunks = iter([head] + [b" " * (1 << 20)] * 256 + [tail])
        self.rest = memoryview(b"")

    def readable(self):
        return True

    def readinto(self, b):
        while not self.rest:
            chunk = next(self.chunks, None)
            if chunk is None:
                return 0
            self.rest = memoryview(chunk)
        n = min(len(b), len(self.rest))
        b[:n] = self.rest[:n]
        self.rest = self.rest[n:]
        return n

before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
got = []
for fmt, rs in (("lines", b""), ("json_seq", b"\\x1e")):
    got.append(list(simdbridge.loads_many(Spaces(rs + b"[0]\\n" + rs, b'{"a":1}\\n'), format=fmt)))
print(got, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) >> 10)
"""


@pytest.mark.skipif(os.environ.get("SIMDBRIDGE_SANITIZED") == "1",
                    reason="the sanitizer's allocator keeps freed memory")
def test_a_record_of_white_space_with_no_end_is_not_held_whole():
    # With no document limit, a lines or json_seq record of white space alone was held whole
    # until its end came: 256 MB of spaces from a pipe took more than 256 MB. It is now held a
    # few blocks at a time, and the documents after it read.
    out = subprocess.run([sys.executable, "-c", SPACES], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    documents, grown_mb = out.stdout.rsplit(" ", 1)
    assert documents == str([[[0], {"a": 1}]] * 2)
    assert int(grown_mb) < 64
