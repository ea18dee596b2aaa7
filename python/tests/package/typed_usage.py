# SPDX-License-Identifier: Apache-2.0
"""A user's typed program: `mypy --strict` (make test) checks it against the package's stubs, so
that a stub that stops matching how the package is called fails the build. Never run."""
from __future__ import annotations

import io
from typing import Any

import simdbridge as json


def main(data: bytes, text: str) -> None:
    value: Any = json.loads(data)
    json.loads(text, parse_float=float, object_hook=dict)
    out: str = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
    raw: bytes = json.dumpb(value, option=json.OPT_INDENT_2 | json.OPT_SORT_KEYS)
    json.dump(value, io.StringIO())
    view = json.parse(data)
    if isinstance(view, json.Object):
        with view:
            first = view.get("a", None)
            keys: list[str] = list(view.keys())
            print(first, keys, view.at_pointer("/a/0"), view.as_dict())
    for record in json.loads_many(data, fields="/a", default=None):
        print(record)
    table = json.loads_arrow(data)
    print(table.__arrow_c_schema__())
    packed: bytes = json.json_to_msgpack(data, ndjson=True, threads=2)
    back: bytes = json.msgpack_to_json(packed, stream=True)
    digest: int = json.checksum(data)
    versions: dict[str, str] = json.versions()
    version: str = json.__version__
    try:
        json.loads(b"[1,")
    except json.LimitError as e:
        print(e.limit, e.offset, e.document)
    except json.JSONDecodeError as e:
        print(e.msg, e.pos, e.lineno, e.colno)
    except json.MessagePackError as e:
        print(e.offset)
    print(out, raw, back, digest, versions, version)
