# SPDX-License-Identifier: Apache-2.0
"""The package's exceptions: subclasses of json.JSONDecodeError, so that `except json.JSONDecodeError`
still catches them."""
import json
from typing import Any, Callable, Optional, Tuple, TypeVar, Union

_Doc = Union[str, bytes, bytearray, memoryview, Any]
_E = TypeVar("_E", bound=BaseException)


_CONTINUATION_BYTES = bytes(range(0x80, 0xC0))


class JSONDecodeError(json.JSONDecodeError):
    """Invalid JSON, with json's message, line, column and position (pos: a character index for
    str input, as in json)."""


class StreamError(JSONDecodeError):
    """Invalid JSON in a stream (loads_many, parse_many, map_many): `document` is the number of
    the faulty document (counting from 1), `offset` the byte offset of the error in the whole
    input, and `pos` that offset in characters where the input was a str. For a stream read from
    a path or a file, `doc` is that path or file, and lineno and colno are counted from where
    reading began: the file read again to count them, or (a file object that cannot seek, such
    as a pipe) counted as its blocks were read."""

    def __init__(self, msg: str, doc: _Doc, offset: int, document: int, *,
                 where: Optional[Tuple[int, int]] = None) -> None:
        self.document = document
        self.offset = offset
        self._reason = msg
        if where is not None:  # a stream read from a file: (line, column) counted as it was read
            lineno, colno = where
            pos = offset
        else:
            data = doc.encode("utf-8", "surrogatepass") if isinstance(doc, str) else bytes(doc)
            head = data[:offset]
            lineno = head.count(b"\n") + 1
            colno = offset - head.rfind(b"\n")
            # For a str, the characters that start before the offset: its UTF-8 bytes less the
            # continuation bytes (counted in C by bytes.translate, not byte by byte in Python).
            pos = len(head.translate(None, _CONTINUATION_BYTES)) if isinstance(doc, str) else offset
        errmsg = "document %d: %s (line %d column %d)" % (document, msg, lineno, colno)
        ValueError.__init__(self, errmsg)
        self.msg = "document %d: %s" % (document, msg)
        self.doc = doc  # type: ignore[assignment]  # bytes, or the path or file of a stream, as well as str
        self.pos = pos
        self.lineno = lineno
        self.colno = colno
        self._where = where

    def __reduce__(self) -> Tuple[Any, ...]:
        if self._where is not None:
            return _rebuild, (self.__class__, (self._reason, self.doc, self.offset, self.document), self._where)
        return self.__class__, (self._reason, self.doc, self.offset, self.document)


class LimitError(StreamError):
    """A limit of set_limits() passed (a StreamError, so a JSONDecodeError too): `limit` names it
    ("max_depth", "max_number_length", "max_string_length" or "max_document_length"), `offset` is the byte where it
    was passed."""

    def __init__(self, msg: str, doc: _Doc, offset: int, document: int, limit: str, *,
                 where: Optional[Tuple[int, int]] = None) -> None:
        super().__init__(msg, doc, offset, document, where=where)
        self.limit = limit

    def __reduce__(self) -> Tuple[Any, ...]:
        args = (self._reason, self.doc, self.offset, self.document, self.limit)
        if self._where is not None:
            return _rebuild, (self.__class__, args, self._where)
        return self.__class__, args


def _rebuild(cls: Callable[..., _E], args: Tuple[Any, ...], where: Tuple[int, int]) -> _E:
    return cls(*args, where=where)


class MessagePackError(ValueError):
    """Malformed MessagePack (truncated, a reserved byte, nesting past max_depth, a value longer
    than max_document_length), or a value that has no JSON form under msgpack_to_json's options:
    `offset` is the byte where it was found, `document` the value's number in a stream (counting
    from 1)."""

    def __init__(self, msg: str, offset: int, document: int) -> None:
        super().__init__("%s at byte %d%s" % (msg, offset, " (value %d)" % document if document > 1 else ""))
        self.msg = msg
        self.offset = offset
        self.document = document

    def __reduce__(self) -> Tuple[Any, ...]:
        return self.__class__, (self.msg, self.offset, self.document)
