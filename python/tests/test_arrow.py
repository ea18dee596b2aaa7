# SPDX-License-Identifier: Apache-2.0
"""loads_arrow(): NDJSON to Arrow record batches, compared with pyarrow's own JSON reader (with
a schema, and inferred), handed to pyarrow, polars and DuckDB through the PyCapsule interface;
errors that name the record, the field and the byte offset; the same table and the same error
for every block size and thread count."""
import datetime
import json
import os
import threading
import tracemalloc

import pytest

import simdbridge
from conftest import data_dir

pa = pytest.importorskip("pyarrow")
pajson = pytest.importorskip("pyarrow.json")


def ours(data, schema=None, **kw):
    return pa.table(simdbridge.loads_arrow(data, schema, **kw))


def theirs(data, schema=None):
    """pyarrow's reader; it reads no date32 from a string, so those are read as strings and cast."""
    read_as = schema
    if schema is not None:
        read_as = pa.schema([pa.field(f.name, pa.string()) if f.type == pa.date32() else f for f in schema])
    options = pajson.ParseOptions(explicit_schema=read_as, unexpected_field_behavior="ignore" if schema else "infer")
    table = pajson.read_json(pa.py_buffer(data), parse_options=options)
    return table.select(schema.names).cast(schema) if schema is not None else table


FLAT = pa.schema([
    ("b", pa.bool_()), ("i8", pa.int8()), ("i16", pa.int16()), ("i32", pa.int32()), ("i64", pa.int64()),
    ("u8", pa.uint8()), ("u16", pa.uint16()), ("u32", pa.uint32()), ("u64", pa.uint64()),
    ("f32", pa.float32()), ("f64", pa.float64()), ("s", pa.string()), ("ls", pa.large_string()),
    ("d", pa.date32()), ("ts", pa.timestamp("us", tz="UTC")), ("tn", pa.timestamp("s")),
])


def flat_records(n):
    out = []
    for i in range(n):
        r = {"b": i % 3 == 0, "i8": i % 100 - 50, "i16": i * 7 % 30000, "i32": i * 1000, "i64": i * 10**12,
             "u8": i % 256, "u16": i % 65536, "u32": i * 3, "u64": 2**63 + i, "f32": i / 4, "f64": i / 3,
             "s": f"name {i} é", "ls": "x" * (i % 5), "d": "2024-02-%02d" % (i % 28 + 1),
             "ts": "2024-02-29T12:34:56.%06dZ" % i, "tn": "2001-09-09T01:46:40", "extra": [i]}
        if i % 7 == 0:
            r["s"] = None
        if i % 11 == 0:
            del r["f64"]
        out.append(r)
    return "".join(json.dumps(r) + "\n" for r in out).encode()


def test_flat_records_with_a_schema_equal_pyarrows():
    data = flat_records(500)
    table = ours(data, FLAT)
    assert table.schema == FLAT
    assert table.equals(theirs(data, FLAT))
    assert table.num_rows == 500


def test_nested_structs_and_lists_with_a_schema():
    schema = pa.schema([
        ("id", pa.int64()),
        ("actor", pa.struct([("login", pa.string()), ("id", pa.int64())])),
        ("tags", pa.list_(pa.string())),
        ("matrix", pa.list_(pa.list_(pa.float64()))),
        ("payload", pa.struct([("commits", pa.list_(pa.struct([("sha", pa.string()), ("n", pa.int32())])))])),
    ])
    rows = [
        {"id": 1, "actor": {"login": "a", "id": 7}, "tags": ["x", "y"], "matrix": [[1, 2.5], []],
         "payload": {"commits": [{"sha": "s1", "n": 1}, {"n": 2}]}},
        {"id": 2, "actor": None, "tags": [], "matrix": None, "payload": {}},
        {"id": 3, "tags": [None, "z"], "ignored": {"deep": [1, 2]}},
    ]
    data = "\n".join(json.dumps(r) for r in rows).encode()
    table = ours(data, schema)
    assert table.equals(theirs(data, schema))
    assert table.column("payload").to_pylist()[0] == {"commits": [{"sha": "s1", "n": 1}, {"sha": None, "n": 2}]}
    # pyarrow's reader takes no large_list of lists: those are checked against the records.
    large = pa.schema([("matrix", pa.large_list(pa.list_(pa.float64()))), ("tags", pa.large_list(pa.large_string()))])
    t = ours(data, large)
    assert t.schema == large
    assert t.column("matrix").to_pylist() == [[[1.0, 2.5], []], None, None]
    assert t.column("tags").to_pylist() == [["x", "y"], [], [None, "z"]]


INFER = [
    {"a": 1, "b": "x", "c": None, "d": [1, 2], "e": {"f": True}},
    {"a": 2.5, "b": None, "c": None, "d": [], "e": {"g": "late"}},
    {"a": None, "b": "y", "d": [3], "h": 10},
]


def test_inference_as_pyarrow_infers():
    data = "\n".join(json.dumps(r) for r in INFER).encode()
    table = ours(data)
    expected = theirs(data)
    assert table.schema == expected.schema, (table.schema, expected.schema)
    assert table.equals(expected)


def test_inference_reads_gh_archive_where_pyarrow_and_polars_fail():
    path = data_dir("ndjson", "gharchive-2015-01-01-0.ndjson")
    data = path.read_bytes()
    table = ours(data)
    lines = [json.loads(line) for line in data.splitlines() if line.strip()]
    assert table.num_rows == len(lines)
    assert table.column("id").to_pylist() == [r["id"] for r in lines]
    assert table.column("actor").to_pylist()[5]["login"] == lines[5]["actor"]["login"]
    assert pa.types.is_struct(table.schema.field("payload").type)


def test_gh_archive_projection_equals_pyarrows():
    data = data_dir("ndjson", "gharchive-2015-01-01-0.ndjson").read_bytes()
    schema = pa.schema([("id", pa.string()), ("type", pa.string()), ("public", pa.bool_()),
                        ("actor", pa.struct([("id", pa.int64()), ("login", pa.string())])),
                        ("repo", pa.struct([("id", pa.int64()), ("name", pa.string())])),
                        ("created_at", pa.string())])
    assert ours(data, schema).equals(theirs(data, schema))


@pytest.mark.parametrize("block_size", [1, 64, 1000, 1 << 20])
@pytest.mark.parametrize("threads", [1, 2, 4])
def test_every_block_size_and_thread_count_gives_the_same_table(block_size, threads):
    data = flat_records(300)
    expected = ours(data, FLAT)
    table = ours(data, FLAT, block_size=block_size, threads=threads)
    assert table.equals(expected)
    assert ours(data, block_size=block_size, threads=threads).equals(ours(data))


@pytest.mark.parametrize("block_size", [1, 50, 1 << 20])
@pytest.mark.parametrize("threads", [1, 3])
def test_errors_name_the_record_the_field_and_the_byte(block_size, threads):
    lines = [b'{"a": 1, "b": {"c": "x"}}'] * 40 + [b'{"a": 2, "b": {"c": 5}}'] + [b'{"a": "late"}'] * 5
    data = b"\n".join(lines)
    schema = pa.schema([("a", pa.int64()), ("b", pa.struct([("c", pa.string())]))])
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.loads_arrow(data, schema, block_size=block_size, threads=threads)
    at = data.index(b'{"a": 2, "b": {"c": 5}}') + len(b'{"a": 2, "b": {"c": ')
    assert (e.value.document, e.value.offset) == (41, at)
    assert "field /b/c: expected string, found an integer" in str(e.value)
    # Inference: the first record whose type conflicts with the ones before it.
    with pytest.raises(simdbridge.StreamError) as i:
        simdbridge.loads_arrow(data, block_size=block_size, threads=threads)
    assert i.value.document == 41 and "field /b/c" in str(i.value)


@pytest.mark.parametrize("data,message,offset", [
    (b'{"a": 1}\n{"a": }\n', "expected a value", 15),
    (b'{"a": 1}\n{"a": 1', "truncated", 16),
    (b'{"a": 1}\n[1, 2]\n', "a record must be an object", 9),
    (b'\xef\xbb\xbf{"a": 1}\n', "byte order mark", 0),
    (b'{"a": "\xff"}\n', "invalid UTF-8", 7),
    (b'{"a": 12345678901234567890123}\n', "past 64 bits", 6),  # (a double: no int64)
])
def test_malformed_input_is_a_clear_error(data, message, offset):
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.loads_arrow(data, pa.schema([("a", pa.int64())]))
    assert message in str(e.value) and e.value.offset == offset, str(e.value)


@pytest.mark.parametrize("data,offset", [(b"7\n", 0), (b'{"a": 1}\n[1, 2]\n', 9)])
def test_a_record_that_is_not_an_object_is_named_so_when_inferring(data, offset):
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.loads_arrow(data)
    assert "a record must be an object" in str(e.value) and e.value.offset == offset, str(e.value)


def test_blank_lines_crlf_and_a_last_line_without_newline():
    data = b'\n{"a": 1}\r\n\r\n  \n{"a": 2}\n{"a": 3}'
    assert ours(data).column("a").to_pylist() == [1, 2, 3]
    assert ours(b"").num_rows == 0
    assert ours(b"", pa.schema([("a", pa.int64())])).schema == pa.schema([("a", pa.int64())])


def test_unknown_fields_and_range_errors():
    schema = pa.schema([("a", pa.int8())])
    assert ours(b'{"a": 1, "zz": [1, {"q": 2}]}', schema).column("a").to_pylist() == [1]
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.loads_arrow(b'{"a": 1, "zz": 2}', schema, error_on_unknown_fields=True)
    assert "field /zz" in str(e.value)
    with pytest.raises(simdbridge.StreamError) as r:
        simdbridge.loads_arrow(b'{"a": 128}', schema)
    assert "out of the type's range" in str(r.value)
    with pytest.raises(simdbridge.StreamError) as d:
        simdbridge.loads_arrow(b'{"a": 1, "a": 2}', schema)
    assert "twice" in str(d.value)


def test_timestamps_and_dates():
    schema = pa.schema([("t", pa.timestamp("ms", tz="UTC")), ("d", pa.date32()), ("n", pa.timestamp("ns"))])
    data = (b'{"t": "2024-02-29T23:59:59.123+01:00", "d": "1969-12-31", "n": 5}\n'
            b'{"t": 1700000000000, "d": 19000, "n": "2024-01-01 00:00:00.000000001"}\n')
    table = ours(data, schema)
    assert table.column("t").to_pylist()[0] == datetime.datetime(2024, 2, 29, 22, 59, 59, 123000, tzinfo=datetime.timezone.utc)
    assert table.column("d").to_pylist() == [datetime.date(1969, 12, 31), datetime.date(2022, 1, 8)]
    assert table.column("n").cast(pa.int64()).to_pylist() == [5, 1704067200000000001]
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.loads_arrow(b'{"d": "2024-13-01"}', schema)
    assert "not a date" in str(e.value)
    # Found by make fuzz: year 4048 in nanoseconds is past int64 (it overflowed).
    with pytest.raises(simdbridge.StreamError) as o:
        simdbridge.loads_arrow(b'{"n": "4048-01-01T00:00:00Z"}', schema)
    assert "out of the timestamp's range" in str(o.value)
    assert ours(b'{"t": "4048-01-01T00:00:00Z"}', schema).column("t").to_pylist()[0].year == 4048


def test_integers_past_64_bits_are_doubles_as_pyarrow_reads_them():
    data = (b'{"a": 1, "b": 123456789012345678901234567890, "c": "x"}\n'
            b'{"a": -99999999999999999999, "b": 2.5, "c": "y"}\n')
    assert ours(data).equals(theirs(data))  # inferred: a and b doubles
    schema = pa.schema([("a", pa.float64()), ("c", pa.string())])
    assert ours(data, schema).to_pylist() == [{"a": 1.0, "c": "x"}, {"a": -1e20, "c": "y"}]
    exact = ours(data, pa.schema([("b", pa.decimal128(38, 0))]), block_size=1).column("b").to_pylist()
    assert str(exact[0]) == "123456789012345678901234567890"
    with pytest.raises(simdbridge.StreamError, match="expected int64, found an integer past 64 bits") as e:
        simdbridge.loads_arrow(data, pa.schema([("a", pa.int64())]))
    assert e.value.pos == data.index(b"-999")
    with pytest.raises(simdbridge.StreamError, match="a number past the double range"):
        simdbridge.loads_arrow(b'{"a": 1e400}\n', schema)


def test_polars_and_duckdb_take_it_without_pyarrow_in_between():
    data = flat_records(50)
    expected = ours(data, FLAT)
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame(simdbridge.loads_arrow(data, FLAT))
    assert frame.height == 50 and frame["i64"].to_list() == expected.column("i64").to_pylist()
    duckdb = pytest.importorskip("duckdb")
    stream = simdbridge.loads_arrow(data, FLAT)
    result = duckdb.sql("select sum(i32) as s, count(*) as n from stream").fetchall()
    assert result == [(sum(expected.column("i32").to_pylist()), 50)]


def test_the_stream_is_read_once_and_its_schema_is_there_before():
    result = simdbridge.loads_arrow(b'{"a": [1]}\n')
    assert pa.schema(result) == pa.schema([("a", pa.list_(pa.int64()))])
    pa.table(result)
    with pytest.raises(ValueError):
        pa.table(result)


def test_load_arrow_file(tmp_path):
    path = tmp_path / "x.ndjson"
    path.write_bytes(flat_records(20))
    assert pa.table(simdbridge.load_arrow_file(path, FLAT)).equals(ours(flat_records(20), FLAT))
    (tmp_path / "empty.ndjson").write_bytes(b"")
    assert pa.table(simdbridge.load_arrow_file(tmp_path / "empty.ndjson")).num_rows == 0


def test_limits_apply_to_each_record():
    previous = simdbridge.set_limits(max_depth=3)
    try:
        with pytest.raises(simdbridge.LimitError) as e:
            simdbridge.loads_arrow(b'{"a": 1}\n{"a": [[[1]]]}\n')
        assert (e.value.limit, e.value.document) == ("max_depth", 2)
    finally:
        simdbridge.set_limits(**previous)


# --- Arrow to NDJSON ---------------------------------------------------------------------------

def test_dumpb_arrow_writes_what_dumpb_writes_row_by_row():
    orjson = pytest.importorskip("orjson")
    rows = [{"i": i - 50, "f": i / 7, "s": "é\"\\\n\x01" * (i % 3), "b": i % 2 == 0, "n": None,
             "big": 1e300 * i, "tiny": 1e-7 * i, "l": [i, None], "o": {"k": "v", "z": None}}
            for i in range(100)]
    table = pa.Table.from_pylist(rows)
    written = simdbridge.dumpb_arrow(table)
    assert written == b"".join(orjson.dumps(r) + b"\n" for r in table.to_pylist())
    assert written == simdbridge.dumpb_arrow(table.to_batches()[0])  # a RecordBatch (__arrow_c_array__)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_round_trip_of_every_type(threads):
    data = flat_records(3000)
    table = ours(data, FLAT)
    written = simdbridge.dumpb_arrow(table, threads=threads)
    assert written == simdbridge.dumpb_arrow(table, threads=1)
    assert ours(written, FLAT).equals(table)
    nested = pa.schema([("l", pa.large_list(pa.struct([("x", pa.int16()), ("t", pa.timestamp("ns", tz="UTC"))]))),
                        ("d", pa.date32()), ("n", pa.null())])
    value = pa.table({"l": [[{"x": 1, "t": 5}, None], None, []], "d": [0, -1, None], "n": [None] * 3}, schema=nested)
    assert ours(simdbridge.dumpb_arrow(value), nested).equals(value)


def test_write_nulls_false_leaves_null_fields_out():
    table = pa.table({"a": [1, None], "b": ["x", None]})
    assert simdbridge.dumpb_arrow(table, write_nulls=False) == b'{"a":1,"b":"x"}\n{}\n'
    assert simdbridge.dumpb_arrow(table) == b'{"a":1,"b":"x"}\n{"a":null,"b":null}\n'


def test_slices_and_polars_frames():
    table = ours(flat_records(200), FLAT)
    part = table.slice(37, 50)
    assert simdbridge.dumpb_arrow(part) == b"".join(simdbridge.dumpb_arrow(table).splitlines(True)[37:87])
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"a": [1, 2], "s": ["x", None], "long": ["a string longer than twelve bytes", "é" * 20]})
    assert simdbridge.dumpb_arrow(frame) == (b'{"a":1,"s":"x","long":"a string longer than twelve bytes"}\n'
                                             b'{"a":2,"s":null,"long":"' + ("é" * 20).encode() + b'"}\n')


def test_what_it_cannot_write_is_a_clear_error():
    with pytest.raises(ValueError) as e:
        simdbridge.dumpb_arrow(pa.table({"b": pa.array([b"x"], pa.binary())}))
    assert "not one this reader takes" in str(e.value) or "type" in str(e.value)
    with pytest.raises(TypeError):
        simdbridge.dumpb_arrow([1, 2])


def test_arrays_whose_offsets_do_not_hold_are_refused_not_read():
    # pyarrow checks an array's first and last offsets where it is built (Array.validate), not
    # those between: this one claims a string of 100,000 bytes in a buffer of 8. polars and
    # DuckDB, handed it, crash; the writer refuses it before reading any row.
    offsets = pa.py_buffer(b"".join(n.to_bytes(4, "little", signed=True) for n in (0, 100000, 0, 5)))
    column = pa.Array.from_buffers(pa.string(), 3, [None, offsets, pa.py_buffer(b"abcdefgh")])
    with pytest.raises(ValueError, match="the offsets of field 'x' decrease or are negative"):
        simdbridge.dumpb_arrow(pa.table({"x": column}))
    good = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(b"".join(
        n.to_bytes(4, "little") for n in (0, 3, 8))), pa.py_buffer(b"abcdefgh")])
    assert simdbridge.dumpb_arrow(pa.table({"x": good})) == b'{"x":"abc"}\n{"x":"defgh"}\n'


@pytest.mark.parametrize("levels", [1100, 20000])
def test_a_schema_nested_past_the_depth_limit_is_refused(levels):
    # pyarrow builds and exports types of any depth; the readers walk a schema by recursion
    # (20,000 levels of it overflowed the stack), and take 1024 levels as they do for records.
    deep = pa.int64()
    for _ in range(levels):
        deep = pa.list_(deep)
    with pytest.raises(ValueError, match="the schema nests deeper than 1024 levels"):
        simdbridge.loads_arrow(b'{"x": null}\n', pa.schema([("x", deep)]))


def test_dump_arrow_writes_the_same_bytes_to_a_path_and_a_file(tmp_path):
    table = ours(flat_records(20000), FLAT)  # several pieces of output
    expected = simdbridge.dumpb_arrow(table, threads=1)
    assert len(expected) > 3 << 20
    for threads in (1, 2):
        simdbridge.dump_arrow(table, tmp_path / "t.ndjson", threads=threads)
        assert (tmp_path / "t.ndjson").read_bytes() == expected
        simdbridge.dump_arrow(table, str(tmp_path / "s.ndjson"), threads=threads)
        assert (tmp_path / "s.ndjson").read_bytes() == expected
        with open(tmp_path / "f.ndjson", "wb") as f:
            simdbridge.dump_arrow(table, f, threads=threads)
        assert (tmp_path / "f.ndjson").read_bytes() == expected
        assert simdbridge.dumpb_arrow(table, threads=threads) == expected
    simdbridge.dump_arrow(table.slice(0, 0), tmp_path / "e.ndjson")
    assert (tmp_path / "e.ndjson").read_bytes() == b""
    assert simdbridge.dumpb_arrow(table.slice(0, 0)) == b""


def test_dump_arrow_failures_are_the_writers_errors(tmp_path):
    table = ours(flat_records(20000), FLAT)
    with pytest.raises(OSError) as full:
        simdbridge.dump_arrow(table, "/dev/full")
    assert full.value.errno == 28  # ENOSPC
    with pytest.raises(FileNotFoundError):
        simdbridge.dump_arrow(table, tmp_path / "no" / "such.ndjson")

    class Failing:
        def __init__(self):
            self.calls = 0

        def write(self, b):
            self.calls += 1
            if self.calls == 2:
                raise RuntimeError("disk on fire")
            return len(b)

    failing = Failing()
    with pytest.raises(RuntimeError, match="disk on fire"):
        simdbridge.dump_arrow(table, failing)
    assert failing.calls == 2  # stopped at the first failure
    with pytest.raises(TypeError):
        simdbridge.dump_arrow(table, 42)


def test_skipped_values_are_validated_unless_turned_off():
    schema = pa.schema([("a", pa.int64())])
    bad = b'{"a": 1, "zz": [tru, "\\q"]}\n'
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.loads_arrow(bad, schema)
    assert (e.value.document, e.value.offset) == (1, 16) and "invalid literal" in str(e.value)
    assert ours(bad, schema, validate_skipped=False).column("a").to_pylist() == [1]
    # The brackets still have to match, and the record's own grammar still holds.
    with pytest.raises(simdbridge.StreamError):
        simdbridge.loads_arrow(b'{"a": 1, "zz": [1}\n', schema, validate_skipped=False)


def test_hostile_records_are_clear_errors_or_read_never_a_crash():
    schema = pa.schema([("a", pa.int64()), ("s", pa.string())])
    # Nesting far past the depth limit, in a skipped value and in a read one.
    deep = b'{"a": 1, "zz": ' + b"[" * 100000 + b"]" * 100000 + b"}\n"
    with pytest.raises(simdbridge.LimitError) as e:
        simdbridge.loads_arrow(deep, schema)
    assert e.value.limit == "max_depth" and e.value.document == 1
    with pytest.raises(simdbridge.LimitError):
        simdbridge.loads_arrow(b'{"a": 1}\n{"s": ' + b"[" * 5000 + b"]" * 5000 + b"}\n")
    # A 40 MB string is read whole; past max_string_length it is refused where it starts.
    big = "é" * (20 << 20)
    data = b'{"a": 1}\n{"s": "' + big.encode() + b'"}\n'
    assert ours(data, schema).column("s").to_pylist() == [None, big]
    previous = simdbridge.set_limits(max_string_length=1000)
    try:
        with pytest.raises(simdbridge.LimitError) as s:
            simdbridge.loads_arrow(data, schema)
        assert (s.value.limit, s.value.document, s.value.offset) == ("max_string_length", 2, 15)
    finally:
        simdbridge.set_limits(**previous)
    # A number of a million digits is an error at once, not a long parse.
    with pytest.raises(simdbridge.StreamError):
        simdbridge.loads_arrow(b'{"a": ' + b"9" * 1000000 + b"}\n", schema)
    # Two records on a line, a record over two lines: errors, as pyarrow says too.
    with pytest.raises(simdbridge.StreamError) as two:
        simdbridge.loads_arrow(b'{"a": 1} {"a": 2}\n', schema)
    assert two.value.offset == 9
    with pytest.raises(simdbridge.StreamError) as split:
        simdbridge.loads_arrow(b'{"a": 1}\n{"a":\n 2}\n', schema)
    assert split.value.document == 2
    # Invalid UTF-8 in a skipped key and an unescaped control character in a value.
    with pytest.raises(simdbridge.StreamError) as utf8:
        simdbridge.loads_arrow(b'{"a": 1, "\xc3\x28": 2}\n', schema)
    assert "UTF-8" in str(utf8.value)
    with pytest.raises(simdbridge.StreamError) as control:
        simdbridge.loads_arrow(b'{"s": "a\x01b"}\n', schema)
    assert "control character" in str(control.value)


@pytest.mark.parametrize("threads", [1, 2])
def test_load_arrow_file_reads_blocks_as_loads_arrow_reads_bytes(tmp_path, threads):
    data = flat_records(3000)
    path = tmp_path / "r.ndjson"
    path.write_bytes(data)
    for block_size in (1, 777, 1 << 20):
        kw = dict(block_size=block_size, threads=threads)
        assert pa.table(simdbridge.load_arrow_file(path, FLAT, **kw)).equals(ours(data, FLAT, **kw))
        assert pa.table(simdbridge.load_arrow_file(path, **kw)).equals(ours(data, **kw))  # inferred
    bad = data + b'{"i64": "x"}\n'
    path.write_bytes(bad)
    with pytest.raises(simdbridge.StreamError) as e:
        simdbridge.load_arrow_file(path, FLAT, block_size=1000, threads=threads)
    assert (e.value.document, e.value.offset) == (3001, len(data) + 8)
    assert (e.value.lineno, e.value.colno) == (3001, 9) and "field /i64" in str(e.value)
    with pytest.raises(FileNotFoundError):
        simdbridge.load_arrow_file(tmp_path / "missing.ndjson", FLAT)


@pytest.mark.parametrize("schema", [FLAT, None])
def test_an_error_in_a_file_is_placed_without_reading_the_file_into_memory(tmp_path, schema):
    # The line and column of an error in a regular file were counted in a bytes object of the
    # whole file, read again: 64 MB for an error on line 2. The core now counts them up to it.
    path = tmp_path / "big.ndjson"
    bad = b'{"i64": 1}\n{"i64": 1, "s": x}\n'
    path.write_bytes(bad + b'{"i64": 2}\n' * (6 << 20))
    tracemalloc.start()
    try:
        with pytest.raises(simdbridge.StreamError) as e:
            simdbridge.load_arrow_file(path, schema)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    with pytest.raises(simdbridge.StreamError) as whole:
        simdbridge.loads_arrow(bad, schema)
    assert str(e.value) == str(whole.value)
    at = bad.index(b"x")
    assert (e.value.offset, e.value.lineno, e.value.colno) == (at, 2, at - 10)
    assert e.value.doc.name == str(path)  # the file, as for loads_many over a file
    assert peak < 1 << 20


def piped_into(path, parts):
    """A writer of `parts` (bytes) into the FIFO at `path`, until the reader closes it."""
    def write():
        try:
            with open(path, "wb") as f:
                for part in parts:
                    f.write(part)
        except BrokenPipeError:
            pass
    thread = threading.Thread(target=write)
    thread.start()
    return thread


@pytest.mark.parametrize("schema", [FLAT, None])
def test_load_arrow_file_reads_a_pipe_a_block_at_a_time(tmp_path, schema):
    # With a schema, a pipe or device was read whole first: /dev/zero until MemoryError. Bytes
    # with no line end are now refused once they go wrong, within a few blocks; the errors of a
    # pipe, which cannot be read again, have the line and column of the bytes read.
    with pytest.raises(simdbridge.StreamError) as zeros:
        simdbridge.load_arrow_file("/dev/zero", schema)
    assert (zeros.value.offset, zeros.value.lineno, zeros.value.colno) == (0, 1, 1)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    data = flat_records(3000)
    head = data + b'\n{"i64": 1, "s": [1, 2, x'
    writer = piped_into(fifo, [head] + [b"y" * (1 << 16)] * 4096)
    with pytest.raises(simdbridge.StreamError) as piped:
        simdbridge.load_arrow_file(fifo, schema, block_size=4096)
    writer.join()
    with pytest.raises(simdbridge.StreamError) as whole:
        simdbridge.loads_arrow(head + b"y" * 100 + b"\n", schema)
    assert str(piped.value) == str(whole.value)
    assert (piped.value.offset, piped.value.lineno, piped.value.colno) == (len(data) + 24, 3002, 24)
    writer = piped_into(fifo, [data])
    assert pa.table(simdbridge.load_arrow_file(fifo, schema, block_size=4096)).equals(ours(data, schema))
    writer.join()


def test_decimals_are_read_exactly_and_rounded_half_up():
    from decimal import Decimal, ROUND_HALF_UP
    schema = pa.schema([("p", pa.decimal128(12, 3))])
    texts = ["0.0005", "-0.0005", "123456789.9994", "1e5", '"42.5"', "null", "7", "-2.5e-3"]
    table = ours("".join('{"p": %s}\n' % t for t in texts).encode(), schema)
    expected = [None if t == "null" else Decimal(t.strip('"')).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
                for t in texts]
    assert table.column("p").to_pylist() == expected
    assert simdbridge.dumpb_arrow(table).splitlines()[0] == b'{"p":0.001}'
    with pytest.raises(simdbridge.StreamError):
        ours(b'{"p": 1234567890.5}\n', schema)  # 13 digits at scale 3


def test_objects_read_as_maps_and_written_back():
    schema = pa.schema([("m", pa.map_(pa.string(), pa.int64()))])
    data = b'{"m": {"a": 1, "b\\u00e9": null}}\n{"m": {}}\n{"m": null}\n'
    table = ours(data, schema)
    assert table.column("m").to_pylist() == [[("a", 1), ("b\u00e9", None)], [], None]
    assert simdbridge.dumpb_arrow(table) == '{"m":{"a":1,"bé":null}}\n{"m":{}}\n{"m":null}\n'.encode()


BAD = (b'{"a": 1, "s": "x"}\n'
       b'{"a": "two", "s": "kept"}\n'  # a value of another type: that field null when kept
       b'not json\n'
       b'[1, 2]\n'
       b'{"a": 3, "s": 4}\n')
BAD_SCHEMA = pa.schema([("a", pa.int64()), ("s", pa.string()), ("_corrupt", pa.string())])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("block_size", [1, 40, 1 << 20])
def test_bad_records_kept_or_dropped_as_sparks_modes(tmp_path, block_size, threads):
    kw = dict(block_size=block_size, threads=threads)
    kept = ours(BAD, BAD_SCHEMA, bad_records="keep", corrupt_record_field="_corrupt", **kw).to_pylist()
    assert kept == [
        {"a": 1, "s": "x", "_corrupt": None},
        {"a": None, "s": "kept", "_corrupt": '{"a": "two", "s": "kept"}'},
        {"a": None, "s": None, "_corrupt": "not json"},
        {"a": None, "s": None, "_corrupt": "[1, 2]"},
        {"a": 3, "s": None, "_corrupt": '{"a": 3, "s": 4}'},
    ]
    assert ours(BAD, BAD_SCHEMA, bad_records="keep", **kw).column("_corrupt").null_count == 5
    assert ours(BAD, BAD_SCHEMA, bad_records="drop", **kw).to_pylist() == [kept[0]]
    # A string field taking any value as its JSON text: the last record is good then.
    loose = ours(BAD, BAD_SCHEMA, bad_records="drop", any_value_as_string=True, **kw).to_pylist()
    assert loose == [kept[0], {"a": 3, "s": "4", "_corrupt": None}]
    # From a file, the same rows.
    path = tmp_path / "bad.ndjson"
    path.write_bytes(BAD)
    from_file = simdbridge.load_arrow_file(path, BAD_SCHEMA, bad_records="keep", corrupt_record_field="_corrupt", **kw)
    assert pa.table(from_file).to_pylist() == kept
    # Failing is the default: the second record's error.
    with pytest.raises(simdbridge.StreamError) as e:
        ours(BAD, BAD_SCHEMA, corrupt_record_field="_corrupt", **kw)
    assert e.value.pos == BAD.index(b'"two"')


@pytest.mark.parametrize("block_size", [1, 40, 1 << 20])
def test_bad_records_kept_or_dropped_with_an_inferred_schema(tmp_path, block_size):
    # Inferring, a bad record (not JSON, not an object, or of types that conflict with the
    # records before it) adds nothing to the schema; kept with a corrupt-record field, that
    # field is a string column at the end, as Spark infers it.
    path = tmp_path / "bad.ndjson"
    path.write_bytes(BAD)
    kw = dict(block_size=block_size)
    for read in (lambda **o: ours(BAD, **o, **kw),
                 lambda **o: pa.table(simdbridge.load_arrow_file(path, **o, **kw))):
        kept = read(bad_records="keep", corrupt_record_field="_corrupt")
        assert kept.schema == pa.schema([("a", pa.int64()), ("s", pa.string()), ("_corrupt", pa.string())])
        assert kept.to_pylist() == [
            {"a": 1, "s": "x", "_corrupt": None},
            {"a": None, "s": "kept", "_corrupt": '{"a": "two", "s": "kept"}'},
            {"a": None, "s": None, "_corrupt": "not json"},
            {"a": None, "s": None, "_corrupt": "[1, 2]"},
            {"a": 3, "s": None, "_corrupt": '{"a": 3, "s": 4}'},
        ]
        dropped = read(bad_records="drop", corrupt_record_field="_corrupt")
        assert dropped.schema == pa.schema([("a", pa.int64()), ("s", pa.string())])
        assert dropped.to_pylist() == [{"a": 1, "s": "x"}]
        assert read(bad_records="keep").schema == dropped.schema
        # A string field taking any value: the last record is read whole (though inference left it out).
        assert read(bad_records="keep", corrupt_record_field="_corrupt",
                    any_value_as_string=True).column("_corrupt").null_count == 2
    with pytest.raises(simdbridge.StreamError):  # failing, the second record's conflict
        ours(BAD)


def test_bad_records_options_are_checked():
    with pytest.raises(ValueError, match="bad_records must be 'fail', 'keep' or 'drop', not 'skip'"):
        simdbridge.loads_arrow(BAD, BAD_SCHEMA, bad_records="skip")
    with pytest.raises(ValueError, match="the corrupt-record field 'a' must be a string"):
        simdbridge.loads_arrow(BAD, BAD_SCHEMA, bad_records="keep", corrupt_record_field="a")
    with pytest.raises(TypeError):
        simdbridge.loads_arrow(BAD, BAD_SCHEMA, bad_records=None)
    with pytest.raises(ValueError):
        simdbridge.loads_arrow(BAD, BAD_SCHEMA, bad_records="keep", corrupt_record_field="a\0b")


def test_spark_temporals_read_numbers_as_seconds():
    schema = pa.schema([("t", pa.timestamp("ms")), ("d", pa.date32())])
    data = b'{"t": 2, "d": "1970-01-03"}\n{"t": "1970-01-01T00:00:05Z", "d": null}\n'
    assert ours(data, schema, spark_temporals=True).to_pylist() == [
        {"t": datetime.datetime(1970, 1, 1, 0, 0, 2), "d": datetime.date(1970, 1, 3)},
        {"t": datetime.datetime(1970, 1, 1, 0, 0, 5), "d": None}]
    assert ours(data, schema).column("t").to_pylist()[0] == datetime.datetime(1970, 1, 1, 0, 0, 0, 2000)
    with pytest.raises(simdbridge.StreamError):  # a day count is no date there
        ours(b'{"d": 2}\n', schema, spark_temporals=True)
    assert ours(b'{"d": 2}\n', schema).column("d").to_pylist() == [datetime.date(1970, 1, 3)]
