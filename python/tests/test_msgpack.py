# SPDX-License-Identifier: Apache-2.0
"""json_to_msgpack and msgpack_to_json against msgpack-python and json: the same bytes as
msgpack.packb(json.loads(doc)) on the corpus and on generated documents, JSON text as
json.dumps writes it, streams on any number of threads, and hostile MessagePack."""
import base64
import json

import msgpack
import pytest
from hypothesis import assume, given, settings, strategies as st

import simdbridge
from conftest import corpus_files, ndjson_files, same


def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_packs_as_msgpack_packs_json_loads(path):
    data = path.read_bytes()
    packed = simdbridge.json_to_msgpack(data)
    assert packed == msgpack.packb(json.loads(data))
    # And back: the values json.loads gives, written as json.dumps writes them.
    text = simdbridge.msgpack_to_json(packed)
    same(json.loads(text), json.loads(data))
    assert text == compact(json.loads(data))


def test_str_bytearray_and_memoryview_read_alike():
    doc = '{"é":[1,2.5,"x"]}'
    expected = msgpack.packb(json.loads(doc))
    assert simdbridge.json_to_msgpack(doc) == expected
    assert simdbridge.json_to_msgpack(bytearray(doc.encode())) == expected
    assert simdbridge.json_to_msgpack(memoryview(doc.encode())) == expected
    assert simdbridge.msgpack_to_json(memoryview(expected)) == simdbridge.msgpack_to_json(bytearray(expected))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 63), max_value=2 ** 64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=20) | st.dictionaries(st.text(), children, max_size=20),
    max_leaves=60)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(json_values)
def test_generated_documents_pack_as_msgpack_packs_them(value):
    text = json.dumps(value)
    assert simdbridge.json_to_msgpack(text) == msgpack.packb(json.loads(text))


msgpack_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 63), max_value=2 ** 64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.floats(width=32, allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=20) | st.dictionaries(
        st.text() | st.integers(min_value=-(2 ** 63), max_value=2 ** 64 - 1) | st.booleans() | st.none(), children,
        max_size=20),
    max_leaves=60)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(msgpack_values, st.booleans())
def test_generated_msgpack_reads_as_json_dumps_writes(value, single_floats):
    try:
        packed = msgpack.packb(value, use_single_float=single_floats)
    except OverflowError:  # a double past float32's range, with single_floats
        assume(False)
    expected = msgpack.unpackb(packed, strict_map_key=False)
    assert simdbridge.msgpack_to_json(packed) == compact(expected)


def test_what_json_lacks():
    assert simdbridge.msgpack_to_json(msgpack.packb([b"\x01\x02\x03", b""])) == b'["AQID",""]'
    blob = bytes(range(256)) * 3 + b"\x07"
    assert json.loads(simdbridge.msgpack_to_json(msgpack.packb(blob))) == base64.b64encode(blob).decode()
    assert simdbridge.msgpack_to_json(msgpack.packb({b"\x01": 1}, use_bin_type=True)) == b'{"AQ==":1}'
    assert simdbridge.msgpack_to_json(msgpack.packb([float("nan"), float("inf"), -float("inf")])) == b"[null,null,null]"
    assert simdbridge.msgpack_to_json(msgpack.packb({1.5: 1, None: 2, True: 3, -4: 4})) == (
        b'{"1.5":1,"null":2,"true":3,"-4":4}')
    timestamp = msgpack.packb(msgpack.Timestamp(1, 0))
    with pytest.raises(simdbridge.MessagePackError) as e:
        simdbridge.msgpack_to_json(timestamp)
    assert e.value.offset == 0
    assert simdbridge.msgpack_to_json(msgpack.packb([msgpack.ExtType(5, b"abc"), 1]), ext_as_null=True) == b"[null,1]"
    with pytest.raises(simdbridge.MessagePackError):
        simdbridge.msgpack_to_json(msgpack.packb([b"x"]), binary_as_base64=False)
    bad_utf8 = b"\x91\xa2\xc3\x28"
    with pytest.raises(simdbridge.MessagePackError) as e:
        simdbridge.msgpack_to_json(bad_utf8)
    assert e.value.offset == 1
    assert simdbridge.msgpack_to_json(bad_utf8, validate_utf8=False) == b'["\xc3("]'


def test_json_errors_name_the_document_and_byte():
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.json_to_msgpack(b'{"a":}')
    assert e.value.offset == 5 and e.value.document == 1
    lines = b"".join(b'{"i":%d}\n' % i for i in range(1000))
    bad = lines.replace(b'{"i":700}', b'{"i":7x0}')
    for threads in (1, 2):
        with pytest.raises(simdbridge.StreamError) as e:
            simdbridge.json_to_msgpack(bad, ndjson=True, threads=threads, block_size=64)
        assert e.value.document == 701
        assert e.value.offset == bad.index(b'7x0') + 1
    with pytest.raises(simdbridge.StreamError):
        simdbridge.json_to_msgpack('["\\ud800"]')  # no UTF-8, so no MessagePack string
    with pytest.raises(simdbridge.LimitError):
        simdbridge.json_to_msgpack("[" * 2000 + "]" * 2000)


def test_arguments_are_checked():
    with pytest.raises(TypeError):
        simdbridge.json_to_msgpack(1)
    with pytest.raises(TypeError):
        simdbridge.msgpack_to_json("not bytes")
    with pytest.raises(ValueError):
        simdbridge.json_to_msgpack(b"[]", ndjson=True, threads=0)
    with pytest.raises(ValueError):
        simdbridge.msgpack_to_json(b"\x90", stream=True, block_size=0)
    with pytest.raises(TypeError):
        simdbridge.json_to_msgpack(b"[]", True)  # keyword-only


@pytest.mark.parametrize("path", ndjson_files()[:2], ids=lambda p: p.name)
def test_ndjson_is_a_value_per_document_on_any_threads(path):
    data = path.read_bytes()
    expected = b"".join(msgpack.packb(json.loads(line)) for line in data.splitlines() if line.strip())
    for threads in (1, 2, 3):
        for block_size in (4096, 1 << 20):
            assert simdbridge.json_to_msgpack(data, ndjson=True, threads=threads, block_size=block_size) == expected
    # And back, as a stream of values: an NDJSON line each.
    lines = b"".join(compact(json.loads(line)) + b"\n" for line in data.splitlines() if line.strip())
    for threads in (1, 2):
        assert simdbridge.msgpack_to_json(expected, stream=True, threads=threads, block_size=4096) == lines


def test_hostile_msgpack_is_an_error_never_a_crash():
    for data, offset in [(b"\xc1", 0), (b"\x92\x01\xc1", 2), (b"\xdd\xff\xff\xff\xff", 0), (b"\xdb\xff\xff\xff\xff\x00", 0),
                         (b"\xc6\xff\xff\xff\xff", 0), (b"\x01\x01", 1), (b"", 0)]:
        with pytest.raises(simdbridge.MessagePackError) as e:
            simdbridge.msgpack_to_json(data)
        assert e.value.offset == offset, data
    with pytest.raises(simdbridge.MessagePackError):
        simdbridge.msgpack_to_json(b"\x91" * 100000 + b"\x00")  # nesting past max_depth
    whole = msgpack.packb({"a": [1, 2.5, "xyz", b"\x00"], "b": {"c": None}})
    for n in range(len(whole)):
        with pytest.raises(simdbridge.MessagePackError):
            simdbridge.msgpack_to_json(whole[:n])
    with pytest.raises(simdbridge.MessagePackError) as e:
        simdbridge.msgpack_to_json(whole * 3 + whole[:-1], stream=True)
    assert e.value.document == 4


def test_a_value_past_max_document_length_is_an_error_at_its_start_plus_the_limit():
    # MessagePack values had no length limit; each value of a stream (or the whole input) now
    # takes at most max_document_length bytes, as a JSON document does.
    previous = simdbridge.set_limits(max_document_length=4)
    try:
        stream = msgpack.packb(1) + msgpack.packb([1, 2, 3]) + msgpack.packb([1, 2, 3, 4])
        assert simdbridge.msgpack_to_json(stream[:5], stream=True) == b"1\n[1,2,3]\n"
        with pytest.raises(simdbridge.MessagePackError) as e:
            simdbridge.msgpack_to_json(stream, stream=True)
        assert (e.value.offset, e.value.document) == (5 + 4, 3)
        assert "max_document_length" in str(e.value)
        with pytest.raises(simdbridge.MessagePackError) as e:
            simdbridge.msgpack_to_json(msgpack.packb("abcd"))
        assert e.value.offset == 4
        assert simdbridge.msgpack_to_json(msgpack.packb("abc")) == b'"abc"'
    finally:
        simdbridge.set_limits(**previous)


def test_exception_pickles():
    import pickle
    e = simdbridge.MessagePackError("the MessagePack ends inside a value", 7, 2)
    back = pickle.loads(pickle.dumps(e))
    assert (back.offset, back.document, str(back)) == (7, 2, str(e))
    assert isinstance(e, ValueError)


def test_dumpb_many_writes_a_line_per_object_as_dumpb_does():
    import orjson
    objects = [{"a": 1, "b": [1.5, None, True]}, [], "x\n\u2028", 2 ** 63, {"t": (1, 2)}, None]
    expected = b"".join(orjson.dumps(o) + b"\n" for o in objects)
    assert simdbridge.dumpb_many(objects) == expected
    assert simdbridge.dumpb_many(iter(objects)) == expected  # any iterable, read once
    assert simdbridge.dumpb_many(o for o in objects) == expected
    assert simdbridge.dumpb_many([]) == b""
    assert simdbridge.dumpb_many([{"b": 1, "a": 2}], option=simdbridge.OPT_SORT_KEYS) == b'{"a":2,"b":1}\n'
    assert simdbridge.dumpb_many([{1}], default=sorted) == b"[1]\n"
    with pytest.raises(TypeError):
        simdbridge.dumpb_many([1, object()])
    with pytest.raises(ValueError):
        simdbridge.dumpb_many([1], option=simdbridge.OPT_INDENT_2)

    def failing():
        yield 1
        raise RuntimeError("the iterator's own error")
    with pytest.raises(RuntimeError):
        simdbridge.dumpb_many(failing())
    # What it writes reads back, a document per line.
    data = simdbridge.dumpb_many(objects)
    assert list(simdbridge.loads_many(data)) == [json.loads(orjson.dumps(o)) for o in objects]
