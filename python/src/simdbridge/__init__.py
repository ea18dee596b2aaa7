# SPDX-License-Identifier: Apache-2.0
"""simdbridge: a drop-in replacement for the json module, at simdjson's speed.

    import simdbridge as json

loads() returns what json.loads returns (the same types, the same key order, the last of
duplicate keys winning, integers past 64 bits exact, NaN and Infinity accepted), and raises
simdbridge.JSONDecodeError, a subclass of json.JSONDecodeError, with json's message, line,
column and position wherever json raises one. dumps() returns what json.dumps returns, for
every combination of its arguments, and raises what it raises. load(), dump(), the hooks of
loads() and cls= work as in json (they are json's, for what simdbridge does not do itself).

Beyond json:

- parse(data), parse_file(path): lazy, read-only views of a document: Object, a Mapping, and
  Array, a Sequence, with at_pointer() (RFC 6901), as_dict() and as_list(). A view keeps its
  document alive; parsing other documents never disturbs it.
- loads_many(data, format=...), parse_many(...): iterators over the documents of a stream,
  format "whitespace" (NDJSON, JSON Lines, any white space between documents; the default),
  "lines", "json_seq" (RFC 7464), "comma" or "array" (the elements of one top-level array).
  fields= takes one JSON Pointer (a value per document) or a list of them (a tuple), with
  default= where one leads nowhere, without building the rest of each document. data may also
  be a path (os.PathLike), a file object (binary or text) or an mmap: it is read block_size
  bytes at a time (1 MiB), so memory stays bounded by the block, not the file (formats comma
  and array are one document and read whole). threads=n has n - 1 threads parse blocks ahead
  while the calling thread builds the objects (threads=None: one per core).
- map_many(fn, data, ...): fn applied to each document of a stream, in order (an iterator),
  with loads_many's arguments.
- load_file(path).
- checksum(data, stream=False): the project's checksum contract (spec/checksum.md), the value
  every engine of the benchmark must agree on.
- set_limits(max_depth=, max_number_length=, max_document_length=), get_limits(): what every
  parse accepts; a limit passed is a LimitError naming it, with its byte offset.
- loads_arrow(data, schema=None, *, block_size=, error_on_unknown_fields=, validate_skipped=, threads=,
  bad_records="fail", corrupt_record_field=None, any_value_as_string=False, spark_temporals=False),
  load_arrow_file(path, ...): NDJSON as Arrow record batches, with a schema (anything with
  __arrow_c_schema__, such as a pyarrow.Schema) or inferred; the result has __arrow_c_stream__,
  so pyarrow.table(r), polars.DataFrame(r) and duckdb.from_arrow(r) take it without a copy.
  Bad records may be kept as rows ("keep", their line in corrupt_record_field) or dropped
  ("drop"), as Spark's PERMISSIVE and DROPMALFORMED modes do; inferring, they add nothing to the
  schema but the corrupt-record field.
- dumpb_arrow(data, *, write_nulls=True, threads=None): Arrow record batches (a pyarrow Table or
  RecordBatch, a polars DataFrame, anything with __arrow_c_stream__ or __arrow_c_array__) as
  NDJSON bytes, numbers and strings as dumpb writes them; dump_arrow(data, fp, ...) writes the
  same into a path or a binary file as it goes, never holding the whole output.
- json_to_msgpack(data, *, ndjson=False, block_size=, threads=None): JSON as MessagePack bytes,
  with no Python object built (msgpack.packb(json.loads(data))'s bytes, duplicate keys kept);
  ndjson=True for one value per document of an NDJSON stream, on several threads.
  msgpack_to_json(data, *, stream=False, validate_utf8=True, binary_as_base64=True,
  ext_as_null=False, block_size=, threads=None): MessagePack as compact JSON bytes (stream=True:
  a sequence of values in, an NDJSON line each out); malformed input is a MessagePackError.
- dumpb(obj, /, default=None, option=None): what orjson.dumps returns (compact UTF-8 bytes),
  with orjson's option flags (OPT_INDENT_2, OPT_SORT_KEYS, OPT_NON_STR_KEYS, ...; the same
  values, so orjson's constants work too) and orjson's errors (JSONEncodeError, which is
  TypeError, with orjson's messages). It serializes what orjson does but numpy's types and
  orjson.Fragment, which go to `default`; see dumpb's docstring. dumpb_many(iterable, /,
  default=None, option=None): NDJSON, each object as dumpb writes it and a newline, in one
  buffer (b"".join(dumpb(o) + b"\n" for o in iterable), faster).

- python -m simdbridge: what python -m json.tool does, with its options and output (the
  simdbridge.tool module).

Known differences from json:

- loads() also takes a memoryview (json.loads does not).
- loads() reads documents nesting up to 1024 levels whatever the recursion limit; json raises
  RecursionError past roughly sys.getrecursionlimit() levels.
- When dumps() meets an error it raises itself (an object it cannot encode, a NaN with
  allow_nan=False, a cycle, a bad key, too deep a nesting), it runs json.dumps again to raise
  json's exact exception: a `default` function is then called again for the objects before
  the error.
- A `default` that changes a dict while dumps() writes it: dumps() goes on with the dict as it
  then is (as json does from Python 3.13); json 3.11 and 3.12 write the items the dict had (or,
  with an indent, raise RuntimeError).
- parse() and parse_many() return json.loads's plain objects, not views, for a document holding
  an integer past 64 bits, a number past the double range or a lone surrogate escape.
- loads_many() and parse_many() read strict JSON (RFC 8259): no NaN or Infinity.
- dump() writes the whole text in one fp.write() call; json.dump writes it in pieces, so when
  encoding fails midway json leaves a partial text in fp and simdbridge leaves nothing.
- A memoryview (any format, contiguous or not) is read as bytes(view).
- The GIL is released while a document of 4 KiB or more is parsed.
- json makes every repeated key of a document one str; loads() shares them through a cache of
  4096 keys of up to 256 bytes, so a longer key, or one pushed out of the cache by others,
  may be a new str each time it repeats (equal, not identical).
"""
import os as _os
from typing import IO as _IO, Any as _Any

from ._errors import JSONDecodeError, LimitError, MessagePackError, StreamError
from . import _core
from ._core import (Array, ArrowStream, Object, checksum, dump_arrow, dumpb, dumpb_arrow, dumpb_many, dumps, json_to_msgpack, loads,
                    loads_arrow, loads_many, map_many, msgpack_to_json, parse, parse_many)
from collections.abc import Mapping as _Mapping, Sequence as _Sequence

# json's own names, for programs that `import simdbridge as json`: JSONEncoder and JSONDecoder
# subclasses passed as cls= work (dumps and loads hand them to json), and the submodules and
# detect_encoding are json's.
from json import JSONDecoder, JSONEncoder, decoder, detect_encoding, encoder, scanner

_core._configure(JSONDecodeError, StreamError, LimitError, MessagePackError)
_Mapping.register(Object)
_Sequence.register(Array)

__all__ = ["JSONDecodeError", "JSONDecoder", "JSONEncoder", "StreamError", "LimitError", "MessagePackError", "json_to_msgpack", "msgpack_to_json",
           "set_limits", "get_limits", "loads_arrow",
           "load_arrow_file", "dumpb_arrow", "dump_arrow", "ArrowStream", "Object", "Array", "loads", "load", "load_file", "dumps",
           "dump", "parse", "parse_file", "loads_many", "parse_many", "map_many", "checksum", "versions", "dumpb", "dumpb_many",
           "JSONEncodeError", "OPT_APPEND_NEWLINE", "OPT_INDENT_2", "OPT_NAIVE_UTC", "OPT_NON_STR_KEYS",
           "OPT_OMIT_MICROSECONDS", "OPT_PASSTHROUGH_DATACLASS", "OPT_PASSTHROUGH_DATETIME",
           "OPT_PASSTHROUGH_SUBCLASS", "OPT_SERIALIZE_DATACLASS", "OPT_SERIALIZE_NUMPY", "OPT_SERIALIZE_UUID",
           "OPT_SORT_KEYS", "OPT_STRICT_INTEGER", "OPT_UTC_Z"]

# dumpb's options: orjson's flags, with orjson's values (defined once, by the extension).
from ._core import (OPT_APPEND_NEWLINE, OPT_INDENT_2, OPT_NAIVE_UTC, OPT_NON_STR_KEYS, OPT_OMIT_MICROSECONDS,
                    OPT_PASSTHROUGH_DATACLASS, OPT_PASSTHROUGH_DATETIME, OPT_PASSTHROUGH_SUBCLASS, OPT_SERIALIZE_DATACLASS,
                    OPT_SERIALIZE_NUMPY, OPT_SERIALIZE_UUID, OPT_SORT_KEYS, OPT_STRICT_INTEGER, OPT_UTC_Z)
JSONEncodeError = TypeError  # as orjson.JSONEncodeError: dumpb's errors are TypeError
__version__: str = _core.versions()["simdbridge"]  # core/VERSION, compiled in


def _read_document(fp: _Any) -> _Any:
    """fp.read(); under max_document_length, no more than that many bytes (or characters) and
    one more: a longer document is the same LimitError, and the rest is never read."""
    limit = _core._get_limits()["max_document_length"]
    if limit == 0:
        return fp.read()
    chunks: list[_Any] = []
    size = 0
    while size <= limit:
        chunk = fp.read(limit + 1 - size)  # a raw stream may return less than asked before its end
        if not chunk:
            if not chunks:
                return chunk
            break
        chunks.append(chunk)
        size += len(chunk)
    return chunks[0] if len(chunks) == 1 else chunks[0][:0].join(chunks)


def load(fp: _IO[str] | _IO[bytes], **kw: _Any) -> _Any:
    """json.load: loads(fp.read(), **kw) (under max_document_length, see _read_document)."""
    return loads(_read_document(fp), **kw)


def load_file(path: str | _os.PathLike[str]) -> _Any:
    """The document in a file, read as bytes."""
    with open(path, "rb") as f:
        return loads(_read_document(f))


def dump(obj: _Any, fp: _IO[str], **kw: _Any) -> None:
    """json.dump: writes dumps(obj, **kw) to fp, in one write (json.dump writes in pieces)."""
    fp.write(dumps(obj, **kw))


def load_arrow_file(path: str | _os.PathLike[str], schema: _Any = None, **kw: _Any) -> ArrowStream:
    """loads_arrow over a file: with a schema, read a block at a time into buffers that each
    thread reuses (the file, or a pipe, is never read whole or mapped); inferred, memory-mapped
    (a pipe kept whole, each block inferred as it arrives). An error's `doc` is the file."""
    with open(path, "rb") as f:
        return _core.load_arrow_fd(f, schema, **kw)


def parse_file(path: str | _os.PathLike[str]) -> _Any:
    """A lazy view of the document in a file."""
    with open(path, "rb") as f:
        return parse(_read_document(f))


_UINT32 = 2**32 - 1


def set_limits(*, max_depth: int | None = None, max_number_length: int | None = None,
               max_string_length: int | None = None, max_document_length: int | None = None) -> dict[str, int]:
    """Sets what every parse of the package accepts, on every thread; returns the previous limits.

    max_depth (default 1024): arrays and objects nest at most this deep. max_number_length
    (default 1000; 0: none): characters of a number past 64 bits or the double range.
    max_string_length (default 0: none): bytes of a string or key, unescaped UTF-8.
    max_document_length (default 0: none): bytes of a document, and of each document of a
    stream. A limit passed is a LimitError (a StreamError, a JSONDecodeError) naming the limit
    and the byte offset, in checksum(), loads_many() and parse_many(). loads() and parse() keep
    json's rules where json has one: numbers as json reads them (sys.get_int_max_str_digits),
    and RecursionError for nesting, raised at max_depth when it is set below the default; a
    max_string_length or max_document_length passed is a LimitError there too. msgpack_to_json
    takes max_depth and max_document_length (each value of a stream) as a MessagePackError.

        previous = simdbridge.set_limits(max_depth=64, max_document_length=1 << 20)
        ...
        simdbridge.set_limits(**previous)
    """
    previous = get_limits()
    chosen = dict(previous)
    for name, value, lowest, highest in (("max_depth", max_depth, 1, _UINT32),
                                         ("max_number_length", max_number_length, 0, _UINT32),
                                         ("max_string_length", max_string_length, 0, 2**64 - 1),
                                         ("max_document_length", max_document_length, 0, 2**64 - 1)):
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if not lowest <= value <= highest:
            raise ValueError(f"{name} must be from {lowest} to {highest}, not {value}")
        chosen[name] = value
    _core._set_limits(chosen["max_depth"], chosen["max_number_length"], chosen["max_string_length"],
                      chosen["max_document_length"])
    return previous


def get_limits() -> dict[str, int]:
    """The limits set_limits() set: {'max_depth': ..., 'max_number_length': ..., 'max_string_length': ...,
    'max_document_length': ...}."""
    return _core._get_limits()


def versions() -> dict[str, str]:
    """{'simdbridge': ..., 'simdjson': ..., 'simdjson_implementation': ...}."""
    return _core.versions()
