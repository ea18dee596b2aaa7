# SPDX-License-Identifier: Apache-2.0
"""No crash on any input: bytes that are not UTF-8, huge and deeply nested documents, buffers
that end anywhere in a page, memoryview slices, a bytearray changed between calls, random bytes
through every front end, many threads at once, and `default` functions that change what the
writers are writing."""
import json
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdbridge
from conftest import corpus_files, same

FORMATS = ["whitespace", "lines", "json_seq", "comma", "array"]


def test_numbers_ending_exactly_at_the_end_of_the_buffer():
    # bytes are read in place when their padding fits in the page: a number that ends the
    # buffer must end there, wherever the buffer ends.
    for n in range(1, 9000, 7):
        digits = ("9" * n)[:19] if n > 19 else "9" * n
        data = b" " * (n - len(digits)) + digits.encode()
        assert simdbridge.loads(data) == int(digits)
        assert simdbridge.loads(data + b"") == json.loads(data)
    for text in (b"1.5", b"-0", b"1e5", b"true", b"null", b'"s"'):
        for pad in range(0, 4200, 13):
            assert simdbridge.loads(b" " * pad + text) == json.loads(text)


def test_memoryview_slices_read_only_their_bytes():
    assert simdbridge.loads(memoryview(b"12345")[:2]) == 12
    assert simdbridge.loads(memoryview(b'[1, 2]  garbage')[:6]) == [1, 2]
    assert simdbridge.loads(memoryview(bytearray(b"truefalse"))[:4]) is True
    assert list(simdbridge.loads_many(memoryview(b"1 2 345")[:5])) == [1, 2, 3]
    with pytest.raises(simdbridge.JSONDecodeError):
        simdbridge.loads(memoryview(b"[1, 2]")[:5])
    assert simdbridge.loads(memoryview(b"[1 , 2]")[::2]) == []  # not contiguous: read as bytes(view), "[  ]"


def test_a_bytearray_changed_between_calls():
    data = bytearray(b'{"a": 1}')
    assert simdbridge.loads(data) == {"a": 1}
    data[6] = ord("2")
    assert simdbridge.loads(data) == {"a": 2}
    data[-1:] = b', "b": [3]}'
    assert simdbridge.loads(data) == {"a": 2, "b": [3]}
    data.clear()
    with pytest.raises(simdbridge.JSONDecodeError):
        simdbridge.loads(data)
    for i in range(200):  # growing and shrinking, reallocating underneath
        data[:] = b"[" + b"1," * i + b"0]"
        assert len(simdbridge.loads(data)) == i + 1
        assert len(simdbridge.parse(data)) == i + 1


def test_huge_documents():
    n = 4_000_000
    big = b"[" + b",".join([b'{"k":1.5,"s":"abc"}'] * (n // 20)) + b"]"
    assert len(simdbridge.loads(big)) == n // 20
    assert len(simdbridge.parse(big)) == n // 20
    long_string = b'"' + b"x" * 50_000_000 + b'"'
    assert len(simdbridge.loads(long_string)) == 50_000_000
    assert len(simdbridge.dumps("é" * 10_000_000, ensure_ascii=True)) == 60_000_002
    wide = b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(200_000)) + b"}"
    assert simdbridge.loads(wide)["k199999"] == 199999


def test_deeply_nested_everywhere():
    for depth in (1025, 5000, 100_000):
        text = b"[" * depth + b"]" * depth
        try:
            expected = json.loads(text)
        except RecursionError:  # json's exception for what it cannot nest (from 1025 on 3.11, later on 3.12)
            expected = RecursionError
        for fn in (simdbridge.loads, simdbridge.parse):
            if expected is RecursionError:
                with pytest.raises(RecursionError):
                    fn(text)
            else:
                value = fn(text)
                assert (value.as_list() if isinstance(value, simdbridge.Array) else value) == expected
        with pytest.raises(simdbridge.StreamError):
            list(simdbridge.loads_many(text))
        with pytest.raises(simdbridge.StreamError):
            list(simdbridge.loads_many(b"[" + text + b"]", format="array"))
    unclosed = b'{"a":' * 200_000
    with pytest.raises((simdbridge.JSONDecodeError, RecursionError)):
        simdbridge.loads(unclosed)


@pytest.mark.parametrize("data", [
    b"\x00", b"\x00" * 100, b"\xff\xfe\x00\x00", b'{"\xc3\x28": 1}', b'"\xe2\x82"', b"[\"\xf0\x9f\x98\"]",
    b"\xed\xbf\xbf", b'["\xf8\x88\x80\x80\x80"]', b"\x80", b"\x1e[1]\n", b"\x1e\x1e\x1e",
])
def test_bytes_that_are_not_utf8_or_not_json(data):
    expected = None
    try:
        expected = json.loads(data)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            simdbridge.loads(data)
    else:
        same(simdbridge.loads(data), expected)
    for fmt in FORMATS:
        try:
            list(simdbridge.loads_many(data, format=fmt))
            list(simdbridge.parse_many(data, format=fmt))
        except simdbridge.StreamError as e:
            assert 0 <= e.offset <= len(data) + 1


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=80), fmt=st.sampled_from(FORMATS), fields=st.sampled_from([None, "/a", ["/0", "/a/b"]]))
def test_random_bytes_through_streams(data, fmt, fields):
    for fn in (simdbridge.loads_many, simdbridge.parse_many):
        try:
            for _ in fn(data, format=fmt, fields=fields):
                pass
        except simdbridge.StreamError as e:
            assert 0 <= e.offset <= len(data) + 1 and e.document >= 1


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=80))
def test_random_bytes_through_views(data):
    try:
        v = simdbridge.parse(data)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return
    if isinstance(v, (simdbridge.Object, simdbridge.Array)):
        assert v == json.loads(data)


def test_many_threads_at_once():
    files = [p.read_bytes() for p in corpus_files()[:8]]
    expected = [json.loads(f) for f in files]
    errors = []

    def work(seed):
        try:
            for k in range(6):
                i = (seed + k) % len(files)
                same(simdbridge.loads(files[i]), expected[i])
                assert simdbridge.parse(files[i]) == expected[i]
                assert simdbridge.loads(simdbridge.dumps(expected[i])) == expected[i]
                list(simdbridge.loads_many(files[i]))
                try:
                    simdbridge.loads(files[i][:-2])
                except (json.JSONDecodeError, RecursionError):
                    pass
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_reentrant_loads_from_a_finalizer():
    # An object freed while loads() builds its result may run code that calls loads() again.
    class Reenter:
        def __del__(self):
            simdbridge.loads(b'{"inner": [1, 2, 3]}')

    for _ in range(100):
        holder = [Reenter()]
        assert simdbridge.loads(b'{"outer": [' + b"1," * 1000 + b"2]}", object_hook=lambda d: (holder.clear(), d)[1])


class _Opaque:
    """Not JSON: every writer hands it to `default`."""


def test_defaults_that_change_what_is_being_written():
    # Random nestings of lists and dicts holding opaque objects, written by every writer with a
    # `default` that clears, shortens or grows a random container of the same tree (the one being
    # written, its parent, the root) each time it is called: no crash, a text or json's error.
    import random
    rng = random.Random(20261201)

    def build(depth, containers):
        r = rng.random()
        if depth > 3 or r < 0.3:
            return rng.choice([1, 2.5, "s", None, True, _Opaque()])
        if r < 0.65:
            value = [build(depth + 1, containers) for _ in range(rng.randint(0, 5))]
        else:
            value = {f"k{i}": build(depth + 1, containers) for i in range(rng.randint(0, 5))}
        containers.append(value)
        return value

    for _ in range(400):
        containers = []
        root = [build(0, containers) for _ in range(3)]
        containers.append(root)

        def default(o):
            c = rng.choice(containers)
            if rng.random() < 0.5:
                c.clear()
            elif isinstance(c, list):
                c.pop(rng.randrange(len(c))) if c else c.append(_Opaque())
            else:
                c.pop(rng.choice(list(c))) if c else c.update(new=_Opaque())
            return "x"

        for write in (lambda: simdbridge.dumps(root, default=default),
                      lambda: simdbridge.dumps(root, default=default, indent=1),
                      lambda: simdbridge.dumps(root, default=default, sort_keys=True),
                      lambda: simdbridge.dumpb(root, default=default),
                      lambda: simdbridge.dumpb(root, default=default, option=simdbridge.OPT_SORT_KEYS)):
            try:
                assert isinstance(write(), (str, bytes))
            except (TypeError, ValueError, RuntimeError):
                pass
