# SPDX-License-Identifier: Apache-2.0
"""loads_many() and parse_many(): every format, errors that name the document and the byte
offset, fields= and default=, and the NDJSON corpus against json line by line."""
import json

import pytest

import simdbridge
from conftest import data_dir, ndjson_files, same

DOCS = [{"a": 1, "b": [1, 2]}, [1, "x"], "s", 3, 2.5, None, True, {"a": {"b": "deep"}}, {}]


def encode(docs, fmt):
    parts = [json.dumps(d) for d in docs]
    if fmt == "whitespace":
        return " \n".join(parts).encode() + b"\r\n"
    if fmt == "lines":
        return "\n".join(parts).encode() + b"\n"
    if fmt == "json_seq":
        return b"".join(b"\x1e" + p.encode() + b"\n" for p in parts)
    if fmt == "comma":
        return ", ".join(parts).encode()
    if fmt == "array":
        return ("[" + ",\n ".join(parts) + "]").encode()
    raise AssertionError(fmt)


FORMATS = ["whitespace", "lines", "json_seq", "comma", "array"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_every_input_type(fmt):
    data = encode(DOCS, fmt)
    for form in (data, data.decode(), bytearray(data), memoryview(data)):
        got = list(simdbridge.loads_many(form, format=fmt))
        same(got, DOCS)
        views = list(simdbridge.parse_many(form, format=fmt))
        assert views == DOCS


def test_default_format_is_whitespace():
    assert list(simdbridge.loads_many(b'{"a":1}{"a":2}\n\n[3]\t4 5')) == [{"a": 1}, {"a": 2}, [3], 4, 5]
    assert list(simdbridge.loads_many(b"")) == [] and list(simdbridge.loads_many(b" \n ")) == []


def test_lines_accepts_blank_lines_and_crlf():
    assert list(simdbridge.loads_many(b'{"a":1}\r\n\r\n[2]\n', format="lines")) == [{"a": 1}, [2]]


def test_lines_rejects_two_documents_on_one_line():
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(b'{"a":1}\n1 2\n', format="lines"))
    assert e.value.document == 2


@pytest.mark.parametrize("path", ndjson_files(), ids=lambda p: p.name)
def test_ndjson_corpus_against_json_per_line(path):
    raw = path.read_bytes()
    expected = [json.loads(line) for line in raw.splitlines() if line.strip()]
    same(list(simdbridge.loads_many(raw)), expected)
    same(list(simdbridge.loads_many(raw, format="lines")), expected)
    assert list(simdbridge.parse_many(raw)) == expected


def test_fields_one_pointer_and_many():
    data = b'{"id": 1, "user": {"name": "a"}, "tags": ["x"]}\n{"id": 2, "user": {}}\n{"id": 3, "user": null}\n[7]\n'
    assert list(simdbridge.loads_many(data, fields="/id")) == [1, 2, 3, None]
    assert list(simdbridge.loads_many(data, fields=["/id", "/user/name"], default="?")) == [
        (1, "a"), (2, "?"), (3, "?"), ("?", "?")]
    assert list(simdbridge.loads_many(data, fields=("/tags/0", "/0"))) == [("x", None), (None, None), (None, None), (None, 7)]
    assert list(simdbridge.loads_many(data, fields=[])) == [(), (), (), ()]
    assert list(simdbridge.loads_many(data, fields="")) == list(simdbridge.loads_many(data))
    views = list(simdbridge.parse_many(data, fields="/user"))
    assert isinstance(views[0], simdbridge.Object) and views[0]["name"] == "a"
    for fmt in FORMATS:
        assert list(simdbridge.loads_many(encode(DOCS, fmt), format=fmt, fields="/a/b", default=0)) == [
            0, 0, 0, 0, 0, 0, 0, "deep", 0]


def test_fields_with_documents_json_reads():
    data = b'{"big": 123456789012345678901234567890, "x": 1}\n{"big": 1, "x": 2}\n'
    assert list(simdbridge.loads_many(data, fields=["/big", "/x"])) == [(123456789012345678901234567890, 1), (1, 2)]
    assert list(simdbridge.loads_many(b"[1e400, 2]", format="array")) == [float("inf"), 2]
    assert list(simdbridge.loads_many(b'{"a":"\\ud800"}', format="comma", fields="/a")) == ["\ud800"]


def test_fields_do_not_build_the_rest():
    # A field read from a huge document builds only that field.
    big = b'{"id": 5, "payload": [' + b",".join([b'{"k": "v"}'] * 200_000) + b"]}\n"
    assert list(simdbridge.loads_many(big * 3, fields="/id")) == [5, 5, 5]


def test_bad_pointers_and_arguments():
    with pytest.raises(ValueError):
        simdbridge.loads_many(b"{}", fields="no-slash")
    with pytest.raises(ValueError):
        simdbridge.loads_many(b"{}", fields=["/ok", "/bad~2"])
    with pytest.raises(TypeError):
        simdbridge.loads_many(b"{}", fields=[1])
    with pytest.raises(ValueError):
        simdbridge.loads_many(b"{}", format="xml")
    with pytest.raises(TypeError):
        simdbridge.loads_many(123)


@pytest.mark.parametrize("fmt", ["whitespace", "lines", "json_seq"])
def test_errors_name_the_document_and_the_byte_offset(fmt):
    good = encode([{"a": 1}, [2]], fmt)
    bad = encode([{"a": 3}], fmt).replace(b"3", b"3,")
    data = good + bad + encode([4], fmt)
    it = simdbridge.loads_many(data, format=fmt)
    assert next(it) == {"a": 1} and next(it) == [2]
    with pytest.raises(simdbridge.StreamError) as e:
        next(it)
    err = e.value
    assert isinstance(err, simdbridge.JSONDecodeError) and isinstance(err, json.JSONDecodeError)
    assert err.document == 3
    assert err.offset == data.index(b"3,") + 2 or err.offset == data.index(b"3,") + 1, err.offset
    assert "document 3" in str(err)
    assert err.lineno == data[:err.offset].count(b"\n") + 1


def test_errors_in_comma_and_array_formats():
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(b"[1, 2, oops]", format="array"))
    assert e.value.offset == 7
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(b"1, 2, oops", format="comma"))
    assert e.value.offset == 6
    with pytest.raises(simdbridge.StreamError):
        list(simdbridge.loads_many(b'  {"not": "an array"}', format="array"))


def test_error_positions_in_str_input_count_characters():
    data = '{"é": "ü"}\n{"€": [1,,]}\n'
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(data))
    err = e.value
    assert err.document == 2
    assert data.encode()[err.offset:err.offset + 1] == b","
    assert data[err.pos] == ","
    assert err.lineno == 2


def test_truncated_streams():
    data = encode(DOCS, "lines")
    for end in range(len(data)):
        try:
            got = list(simdbridge.loads_many(data[:end]))
        except simdbridge.StreamError as e:
            assert 0 <= e.offset <= end
        else:
            # A cut that leaves only whole documents (a number cut short is still a number).
            assert len(got) <= len(DOCS)


def test_invalid_utf8_in_a_stream():
    with pytest.raises(simdbridge.StreamError) as e:
        list(simdbridge.loads_many(b'{"a": "ok"}\n{"a": "\xff"}\n'))
    assert e.value.document == 2 and e.value.offset >= 12


def test_deep_documents_in_a_stream():
    deep = b"[" * 1024 + b"1" + b"]" * 1024
    assert len(list(simdbridge.loads_many(deep + b"\n" + deep))) == 2
    with pytest.raises(simdbridge.StreamError):
        list(simdbridge.loads_many(b"[" * 1025 + b"]" * 1025))


def test_parse_many_views_outlive_iteration():
    raw = (data_dir("ndjson") / "gharchive-2015-01-01-0.ndjson").read_bytes()
    views = list(simdbridge.parse_many(raw))
    expected = [json.loads(line) for line in raw.splitlines() if line.strip()]
    simdbridge.loads(raw.splitlines()[0])
    assert [v["id"] for v in views] == [d["id"] for d in expected]
    assert views[-1] == expected[-1]


def test_a_bytearray_cannot_be_resized_while_a_stream_reads_it():
    data = bytearray(b"[1]\n[2]\n[3]\n")
    it = simdbridge.loads_many(data)
    assert next(it) == [1]
    with pytest.raises(BufferError):
        data.extend(b"[4]\n")
    data[5] = ord("9")  # same size: allowed; the stream reads its bytes as they are now or were
    rest = list(it)
    assert rest in ([[2], [3]], [[9], [3]])
    del it
    data.extend(b"[4]\n")


def test_one_iterator_advanced_from_several_threads():
    # Not a pattern to recommend, but never a crash: each document comes out exactly once.
    import threading
    data = b"".join(b'{"i":%d}\n' % i for i in range(20000))
    for make in (simdbridge.loads_many, simdbridge.parse_many):
        it = make(data)
        seen = []
        lock = threading.Lock()

        def drain():
            for doc in it:
                with lock:
                    seen.append(doc["i"])

        threads = [threading.Thread(target=drain) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(seen) == list(range(20000))
