# SPDX-License-Identifier: Apache-2.0
"""The package's exceptions: subclasses of json.JSONDecodeError, so that `except json.JSONDecodeError`
still catches them."""
import json


class JSONDecodeError(json.JSONDecodeError):
    """Invalid JSON, with json's message, line, column and position (pos: a character index for
    str input, as in json)."""


class StreamError(JSONDecodeError):
    """Invalid JSON in a stream (loads_many, parse_many): `document` is the number of the faulty
    document (counting from 1), `offset` the byte offset of the error in the whole input, and
    `pos` that offset in characters where the input was a str."""

    def __init__(self, msg, doc, offset, document):
        self.document = document
        self.offset = offset
        self._reason = msg
        data = doc.encode("utf-8", "surrogatepass") if isinstance(doc, str) else bytes(doc)
        head = data[:offset]
        lineno = head.count(b"\n") + 1
        colno = offset - head.rfind(b"\n")
        # For a str, the characters that start before the offset (UTF-8 lead bytes).
        pos = sum(1 for b in head if b & 0xC0 != 0x80) if isinstance(doc, str) else offset
        errmsg = "document %d: %s (line %d column %d)" % (document, msg, lineno, colno)
        ValueError.__init__(self, errmsg)
        self.msg = "document %d: %s" % (document, msg)
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno

    def __reduce__(self):
        return self.__class__, (self._reason, self.doc, self.offset, self.document)
