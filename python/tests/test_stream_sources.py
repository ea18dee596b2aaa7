# SPDX-License-Identifier: Apache-2.0
"""Streams from paths, file objects and mmaps, read a block at a time; threads=; map_many():
the same documents, errors and offsets as the same bytes in memory, for every block size."""
import gc
import io
import json
import mmap
import os
import pathlib
import random
import threading
import tracemalloc

import pytest

import simdbridge
from conftest import ndjson_files, same

FORMATS = ["whitespace", "lines", "json_seq"]


def random_stream(rng, fmt, n=60):
    docs = []
    for _ in range(n):
        kind = rng.randrange(5)
        if kind == 0:
            docs.append({"id": rng.randrange(10**6), "s": "é" * rng.randrange(3) + "x" * rng.randrange(40)})
        elif kind == 1:
            docs.append([rng.random(), None, True, {"k": [1, 2, {"z": "ü"}]}])
        elif kind == 2:
            docs.append(2**70 + rng.randrange(9))  # past 64 bits: json reads it
        elif kind == 3:
            docs.append("line\nbreak")
        else:
            docs.append({})
    if fmt == "lines":
        text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
    elif fmt == "json_seq":
        text = "".join("\x1e" + json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
    else:  # documents over several lines, some on one line
        text = "".join(json.dumps(d, ensure_ascii=False, indent=rng.choice([None, 1])) + rng.choice(["\n", " ", "\n\n"])
                       for d in docs)
    return docs, text.encode()


def outcome(make):
    """Every document the iterator gives, then its error as (type, document, offset), or None."""
    got = []
    try:
        for value in make():
            got.append(value)
    except simdbridge.StreamError as e:
        return got, (type(e), e.document, e.offset)
    return got, None


def sources(tmp_path, data):
    path = tmp_path / "stream.json"
    path.write_bytes(data)
    yield "path", lambda: path
    yield "binary file", lambda: open(path, "rb")
    yield "unbuffered file", lambda: open(path, "rb", buffering=0)
    yield "text file", lambda: open(path, encoding="utf-8")
    yield "BytesIO", lambda: io.BytesIO(data)
    yield "mmap", lambda: mmap.mmap(os.open(path, os.O_RDONLY), 0, prot=mmap.PROT_READ) if data else io.BytesIO(b"")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("seed", range(6))
def test_sources_blocks_and_threads_read_what_memory_reads(tmp_path, fmt, seed):
    rng = random.Random(seed)
    docs, data = random_stream(rng, fmt)
    if seed % 3 == 2:  # damaged: the same error at the same offset from every source
        cut = rng.randrange(1, len(data))
        data = data[:cut] + b"]" + data[cut:]
    want = outcome(lambda: simdbridge.loads_many(data, format=fmt))
    if seed % 3 != 2:
        same(want[0], docs)
    for name, make in sources(tmp_path, data):
        for block_size in (1, 7, 300, 1 << 20):
            for threads in (1, 2, 3):
                got = outcome(lambda: simdbridge.loads_many(make(), format=fmt, block_size=block_size, threads=threads))
                assert got == want, (name, block_size, threads)
        got = outcome(lambda: simdbridge.parse_many(make(), format=fmt, block_size=64, threads=2))
        assert got == want, name


def test_a_str_is_data_not_a_path(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1]\n")
    with pytest.raises(simdbridge.StreamError):
        list(simdbridge.loads_many(str(path)))
    assert list(simdbridge.loads_many(path)) == [[1]]
    assert list(simdbridge.loads_many(pathlib.PurePosixPath(path))) == [[1]]  # any os.PathLike


@pytest.mark.parametrize("path", ndjson_files(), ids=lambda p: p.name)
def test_ndjson_corpus_from_a_path_on_threads(path):
    want = [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    for threads in (1, 2, None):
        same(list(simdbridge.loads_many(path, threads=threads, block_size=1 << 16)), want)
    views = list(simdbridge.parse_many(path, threads=2))
    assert views == want
    assert list(simdbridge.loads_many(path, fields="/id", threads=2)) == [d.get("id") if isinstance(d, dict) else None
                                                                          for d in want]


def test_errors_from_a_path_give_line_and_column(tmp_path):
    path = tmp_path / "bad.ndjson"
    data = b'{"a": 1}\n{"a": 2}\n{"a": tru}\n'
    path.write_bytes(data)
    for threads in (1, 2):
        with pytest.raises(simdbridge.StreamError) as info:
            list(simdbridge.loads_many(path, threads=threads, block_size=4))
        e = info.value
        mem = pytest.raises(simdbridge.StreamError, lambda: list(simdbridge.loads_many(data))).value
        assert (e.document, e.offset, e.lineno, e.colno) == (mem.document, mem.offset, mem.lineno, mem.colno) == (3, 24, 3, 7)
        assert e.doc == path
        assert isinstance(e, json.JSONDecodeError)


def test_errors_from_a_file_object_give_line_and_column(tmp_path):
    # They were 0 for every file object: it was not read again to count them. One that can seek
    # is read again; one that cannot (a pipe) has its lines counted as its blocks are read.
    path = tmp_path / "bad.ndjson"
    data = b'{"a": 1}\n{"a": 2}\n{"a": "\xc3\xa9", "b": tru}\n'
    path.write_bytes(data)
    mem = pytest.raises(simdbridge.StreamError, lambda: list(simdbridge.loads_many(data))).value
    assert (mem.lineno, mem.colno) == (3, 18)

    class Unseekable(io.RawIOBase):
        def __init__(self, inner):
            self.inner = inner

        def readable(self):
            return True

        def readinto(self, b):
            return self.inner.readinto(b)

    for threads in (1, 2):
        with open(path, "rb") as binary, open(path, encoding="utf-8") as text:
            text.readline()  # counted from where reading began
            for f, head, line in ((binary, 0, 3), (io.BytesIO(b"[0]\n" + data), 0, 4), (text, 9, 2)):
                f.seek(head) if f is binary else None
                position = f.tell()
                with pytest.raises(simdbridge.StreamError) as info:
                    list(simdbridge.loads_many(f, threads=threads, block_size=4))
                e = info.value
                assert (e.lineno, e.colno) == (line, 18), f
                assert e.doc is f
                assert f.tell() != position  # put back where the stream left it, not where it began
        for block_size in (4, 1 << 20):
            unseekable = Unseekable(io.BytesIO(data))
            e = pytest.raises(simdbridge.StreamError, lambda: list(
                simdbridge.loads_many(unseekable, threads=threads, block_size=block_size))).value
            assert (e.offset, e.lineno, e.colno) == (mem.offset, 3, 18)
            assert str(e) == str(mem)
    # A pipe, as sys.stdin.buffer is.
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as w:
        w.write(data)
    with os.fdopen(read_end, "rb") as r:
        e = pytest.raises(simdbridge.StreamError, lambda: list(simdbridge.loads_many(r, block_size=16))).value
    assert (e.offset, e.lineno, e.colno) == (mem.offset, 3, 18)


def test_a_missing_path_is_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        simdbridge.loads_many(tmp_path / "none.ndjson")


def test_a_file_that_fails_raises_its_own_error():
    class Failing(io.RawIOBase):
        def __init__(self):
            self.calls = 0

        def readable(self):
            return True

        def readinto(self, b):
            self.calls += 1
            if self.calls > 2:
                raise OSError("disk gone")
            b[:4] = b"[1]\n"
            return 4

    with pytest.raises(OSError, match="disk gone"):
        list(simdbridge.loads_many(Failing(), block_size=4))
    with pytest.raises(TypeError, match="not bytes or str"):
        list(simdbridge.loads_many(type("R", (), {"read": lambda self, n: 5})()))


def test_a_file_that_lies_about_its_count_is_an_error():
    class Liar(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            return len(b) + 10

    with pytest.raises(ValueError, match="readinto"):
        list(simdbridge.loads_many(Liar()))


def test_memory_stays_bounded_by_the_block_not_the_file(tmp_path):
    path = tmp_path / "big.ndjson"
    line = json.dumps({"id": 1, "text": "x" * 200, "list": list(range(20))}).encode() + b"\n"
    with open(path, "wb") as f:
        for _ in range(20):
            f.write(line * 5000)  # about 30 MB
    size = path.stat().st_size
    gc.collect()
    for threads in (1, 2):
        tracemalloc.start()
        n = sum(1 for _ in simdbridge.loads_many(path, threads=threads, block_size=1 << 16))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert n == 100000
        assert peak < size / 20, (threads, peak, size)  # Python objects; the core's blocks are below
    # The core's memory: the process's peak does not grow by the file's size.
    import resource
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sum(1 for _ in simdbridge.loads_many(path, threads=2, block_size=1 << 16))
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert (after - before) * 1024 < size / 3, (before, after, size)


def test_map_many_applies_in_order_with_every_argument():
    data = b"".join(json.dumps({"i": i, "s": str(i)}).encode() + b"\n" for i in range(5000))
    assert list(simdbridge.map_many(lambda d: d["i"], data)) == list(range(5000))
    assert list(simdbridge.map_many(str, data, fields="/s", threads=2, block_size=100)) == [str(i) for i in range(5000)]
    assert list(simdbridge.map_many(len, b"[1,2], [3]", format="comma")) == [2, 1]
    assert list(simdbridge.map_many(len, b"[[1,2],[3]]", format="array")) == [2, 1]
    with pytest.raises(TypeError, match="callable"):
        simdbridge.map_many(1, data)
    with pytest.raises(ZeroDivisionError):
        list(simdbridge.map_many(lambda d: 1 / 0, data))
    with pytest.raises(simdbridge.StreamError) as info:
        list(simdbridge.map_many(lambda d: d, b"1\n2\n[\n"))
    assert info.value.document == 3


def test_threads_and_block_size_arguments():
    with pytest.raises(ValueError):
        simdbridge.loads_many(b"1", threads=0)
    with pytest.raises(ValueError):
        simdbridge.loads_many(b"1", block_size=0)
    with pytest.raises(TypeError):
        simdbridge.loads_many(b"1", threads="2")
    with pytest.raises(TypeError, match="a path or a file"):
        simdbridge.loads_many(12)


def test_an_iterator_dropped_midway_stops_its_threads():
    data = b"".join(b'{"a": [1, 2, 3]}\n' for _ in range(200000))
    before = threading.active_count()
    for _ in range(20):
        it = simdbridge.loads_many(data, threads=3, block_size=1 << 12)
        next(it)
        del it
    gc.collect()
    assert threading.active_count() == before


def test_two_threads_reading_one_threaded_iterator_never_crash():
    data = b"".join(b'{"a": %d}\n' % i for i in range(100000))
    it = simdbridge.loads_many(data, threads=2, block_size=1 << 12)
    seen, errors = [], []

    def drain():
        while True:
            try:
                seen.append(next(it)["a"])
            except StopIteration:
                return
            except ValueError as e:  # "already being read by another thread"
                errors.append(e)

    workers = [threading.Thread(target=drain) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(seen) == list(range(100000))
