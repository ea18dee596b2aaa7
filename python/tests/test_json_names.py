# SPDX-License-Identifier: Apache-2.0
"""`import simdbridge as json` keeps working where a program reaches for json's other names, and
the functions describe themselves as json's (inspect.signature, help)."""
import inspect
import json

import pytest

import simdbridge


@pytest.mark.parametrize("name", ["JSONEncoder", "JSONDecoder", "JSONDecodeError", "decoder", "encoder", "scanner",
                                  "detect_encoding", "load", "loads", "dump", "dumps"])
def test_json_names(name):
    assert hasattr(simdbridge, name)


def test_every_name_of_json_all():
    assert set(json.__all__) <= set(simdbridge.__all__)


def test_encoder_and_decoder_subclasses_as_cls():
    class SetEncoder(simdbridge.JSONEncoder):
        def default(self, o):
            return sorted(o) if isinstance(o, set) else super().default(o)

    class Tagging(simdbridge.JSONDecoder):
        def __init__(self, **kw):
            super().__init__(object_hook=lambda d: {**d, "tagged": True}, **kw)

    obj = {"s": {3, 1, 2}, "n": [1.5, None]}
    assert simdbridge.dumps(obj, cls=SetEncoder) == json.dumps(obj, cls=SetEncoder)
    assert simdbridge.dumps(obj, cls=SetEncoder, indent=2) == json.dumps(obj, cls=SetEncoder, indent=2)
    doc = '{"a": {"b": 1}}'
    assert simdbridge.loads(doc, cls=Tagging) == json.loads(doc, cls=Tagging)
    assert simdbridge.detect_encoding(b'\xff\xfe{\x00}\x00') == json.detect_encoding(b'\xff\xfe{\x00}\x00')
    assert simdbridge.JSONDecoder().decode("[1]") == [1]


def _parameters(f):
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


def test_signatures_are_jsons():
    assert _parameters(simdbridge.loads) == _parameters(json.loads)
    assert _parameters(simdbridge.dumps) == _parameters(json.dumps)
    dumpb = inspect.signature(simdbridge.dumpb)
    assert [(p.name, p.kind) for p in dumpb.parameters.values()] == [
        ("obj", inspect.Parameter.POSITIONAL_ONLY), ("default", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("option", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for f in (simdbridge.parse, simdbridge.loads_many, simdbridge.parse_many, simdbridge.map_many, simdbridge.checksum):
        inspect.signature(f)


@pytest.mark.parametrize("name", ["loads", "dumps", "dumpb", "parse", "loads_many", "checksum"])
def test_docstrings_say_more_than_a_line(name):
    doc = inspect.getdoc(getattr(simdbridge, name))
    assert doc is not None and len(doc.splitlines()) >= 2, doc
