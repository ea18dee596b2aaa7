# SPDX-License-Identifier: Apache-2.0
"""An independent reference for docs/checksum.md, written on Python's json module.

It shares no code with the core (no simdjson, no C++): the core's tests compare the engine
with what this program computes.

    checksum_reference.py files OUT FILE...      one line per file: <16 hex>  <path>
                                                  (.ndjson / .jsonl files are read as streams)
    checksum_reference.py corpus OUT DATA_DIR    the same for the corpus: jsonexamples/*.json,
                                                  ndjson/*.ndjson and jsonchecker/minefield/y_*,
                                                  paths relative to DATA_DIR
    checksum_reference.py random OUT SEED COUNT  COUNT random documents: <16 hex> <hex bytes>
                                                  per line, each document and its checksum
    checksum_reference.py random-streams OUT SEED COUNT
                                                  the same for streams of random documents
    checksum_reference.py vectors OUT            the test vectors of docs/checksum.md, checked
                                                  against this reference first: <16 hex> <hex
                                                  bytes> per line, the stream vector last
    checksum_reference.py extract OUT FILE POINTER:TYPE...
                                                  batch field extraction: for each record (line)
                                                  of FILE, one tab-separated cell per pointer
                                                  (TYPE: int64, float64, boolean, string)
"""
import glob
import json
import os
import random
import re
import struct
import sys

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "checksum.md")

SEED = 0xCBF29CE484222325
PRIME = 0x100000001B3
MASK = (1 << 64) - 1


class Integral:
    """A number token without fraction or exponent, as written."""
    __slots__ = ("token",)

    def __init__(self, token):
        self.token = token


class NonIntegral:
    """A number token with a fraction or an exponent, as written."""
    __slots__ = ("token",)

    def __init__(self, token):
        self.token = token


class Obj:
    """An object's members in document order, duplicates kept."""
    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = pairs


def _reject_constant(name):
    raise ValueError("%s is not JSON (RFC 8259)" % name)


def parse(text):
    return json.loads(text, object_pairs_hook=Obj, parse_int=Integral,
                      parse_float=NonIntegral, parse_constant=_reject_constant)


def utf8_length(s):
    # A lone surrogate counts the 3 bytes of its generalized UTF-8 encoding.
    return len(s.encode("utf-8", "surrogatepass"))


def double_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def fold_value(h, value):
    def fold(h, tag, payload):
        h = ((h ^ tag) * PRIME) & MASK
        return ((h ^ payload) * PRIME) & MASK

    stack = [("value", value)]
    while stack:
        kind, item = stack.pop()
        if kind == "end":
            h = fold(h, item, 0)
        elif kind == "key":
            h = fold(h, 5, utf8_length(item))
        elif isinstance(item, Obj):
            h = fold(h, 1, 0)
            stack.append(("end", 2))
            for key, child in reversed(item.pairs):
                stack.append(("value", child))
                stack.append(("key", key))
        elif isinstance(item, list):
            h = fold(h, 3, 0)
            stack.append(("end", 4))
            for child in reversed(item):
                stack.append(("value", child))
        elif isinstance(item, str):
            h = fold(h, 6, utf8_length(item))
        elif isinstance(item, Integral):
            n = int(item.token)
            if -(1 << 63) <= n < (1 << 64):
                h = fold(h, 7, n & MASK)
            else:
                h = fold(h, 8, double_bits(float(item.token)))
        elif isinstance(item, NonIntegral):
            h = fold(h, 8, double_bits(float(item.token)))
        elif item is True:
            h = fold(h, 9, 0)
        elif item is False:
            h = fold(h, 10, 0)
        elif item is None:
            h = fold(h, 11, 0)
        else:
            raise TypeError(type(item))
    return h


def document_checksum(text):
    return fold_value(SEED, parse(text))


def stream_checksum(text):
    """Documents separated by white space; tag 12 after each."""
    decoder = json.JSONDecoder(object_pairs_hook=Obj, parse_int=Integral,
                               parse_float=NonIntegral, parse_constant=_reject_constant)
    h = SEED
    pos = 0
    ws = " \t\r\n"
    while True:
        while pos < len(text) and text[pos] in ws:
            pos += 1
        if pos == len(text):
            return h
        value, pos = decoder.raw_decode(text, pos)
        h = fold_value(h, value)
        h = ((h ^ 12) * PRIME) & MASK
        h = (h * PRIME) & MASK


# ---------------------------------------------------------------------------------------------
# Random documents: JSON text written token by token (not by json.dumps), to reach the corners.

def random_string(rng):
    parts = ['"']
    for _ in range(rng.randrange(0, 12)):
        r = rng.random()
        if r < 0.35:
            parts.append(rng.choice("abcxyz 019_-~"))
        elif r < 0.45:
            parts.append(rng.choice(['\\n', '\\t', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r']))
        elif r < 0.55:
            parts.append("\\u%04x" % rng.choice([0, 0x1F, 0x41, 0xE9, 0x7FF, 0x800, 0xFFFF, 0x20AC]))
        elif r < 0.62:
            cp = rng.randrange(0x10000, 0x110000)  # a surrogate pair as escapes
            v = cp - 0x10000
            parts.append("\\u%04X\\u%04x" % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)))
        elif r < 0.68:
            parts.append(rng.choice(["\\ud800", "\\udbff", "\\udc00", "\\udfff",
                                     "\\ud800\\u0041", "\\udc00\\ud800", "\\ud800\\ud800\\udc00"]))
        elif r < 0.85:
            parts.append(chr(rng.choice([0xE9, 0x3B1, 0x4E2D, 0x20AC, 0x1F600, 0x10FFFF, 0x7FF, 0x800])))
        else:
            parts.append("".join(rng.choice("ABCDEFGHIJ") for _ in range(rng.randrange(1, 40))))
    parts.append('"')
    return "".join(parts)


def random_number(rng):
    return rng.choice([
        lambda: str(rng.randrange(-1000, 1000)),
        lambda: "-0", lambda: "0", lambda: "-0.0", lambda: "0e0", lambda: "0E-0",
        lambda: str(rng.choice([(1 << 63) - 1, 1 << 63, (1 << 64) - 1, -(1 << 63)])),
        lambda: str(rng.choice([1 << 64, -(1 << 63) - 1, 10 ** 25, -(10 ** 30), 10 ** 400])),
        lambda: "%d.%d" % (rng.randrange(-99999, 99999), rng.randrange(0, 10 ** 6)),
        lambda: "%de%d" % (rng.randrange(1, 10), rng.randrange(-400, 400)),
        lambda: "%d.%dE+%d" % (rng.randrange(0, 10), rng.randrange(0, 1000), rng.randrange(0, 320)),
        lambda: rng.choice(["1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309",
                            "-1e400", "5e-324", "2.4703282292062328e-324", "1e-400", "-1e-400",
                            "4.9406564584124654e-324", "2.2250738585072011e-308"]),
        lambda: "1." + "".join(rng.choice("0123456789") for _ in range(rng.randrange(17, 60))),
        lambda: "".join(rng.choice("123456789") for _ in range(rng.randrange(19, 25))),
    ])()


def random_whitespace(rng):
    return "".join(rng.choice(" \t\r\n") for _ in range(rng.choice([0, 0, 0, 1, 2])))


def random_value(rng, depth):
    r = rng.random()
    if depth < 12 and r < 0.18:
        keys = [random_string(rng) for _ in range(rng.randrange(0, 5))]
        if keys and rng.random() < 0.3:
            keys.append(keys[0])  # a duplicate key: every member is folded
        members = [random_whitespace(rng) + k + random_whitespace(rng) + ":" +
                   random_value(rng, depth + 1) for k in keys]
        return "{" + ",".join(members) + random_whitespace(rng) + "}"
    if depth < 12 and r < 0.36:
        items = [random_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))]
        return "[" + ",".join(items) + random_whitespace(rng) + "]"
    ws = random_whitespace(rng)
    if r < 0.55:
        return ws + random_string(rng) + ws
    if r < 0.85:
        return ws + random_number(rng) + ws
    return ws + rng.choice(["true", "false", "null"]) + ws


def random_document(rng, index):
    if index % 50 == 7:
        depth = rng.choice([100, 1023, 1024])  # deep nesting, up to the default limit
        return "[" * depth + random_value(rng, 12) + "]" * depth
    return random_value(rng, 0)


def random_stream(rng):
    """Documents, many of them scalars at the root (the hard case for batch boundaries), with
    varied separators; documents touch where no reader can confuse them ({}{}, "a"1, [1]2)."""
    separators = ["\n", "\r\n", " ", "\n\n", "\t\n  "]
    text = rng.choice(["", "\n", "  "])
    previous = None
    for _ in range(rng.randrange(0, 16)):
        r = rng.random()
        if r < 0.25:
            doc = random_number(rng)
        elif r < 0.35:
            doc = rng.choice(["true", "false", "null"])
        elif r < 0.45:
            doc = random_string(rng)
        elif r < 0.5:
            doc = "1" + "0" * rng.randrange(20, 300)  # longer than the smallest batches
        else:
            doc = random_value(rng, rng.randrange(0, 12)).strip(" \t\r\n")
        if previous is not None:
            touching = previous[-1] in "]}\"" and rng.random() < 0.3
            text += "" if touching else rng.choice(separators)
        text += doc
        previous = doc
    return text + rng.choice(["", "\n", " \n"])


def spec_vectors(path=SPEC):
    """The test vectors of the contract, read from its table: [(JSON text, 16 hex)], and the
    stream vector (its text, with the table's \\n as newlines, and its 16 hex). Every front end's
    tests take them from here (Python) or from the file `vectors` writes (C++), or read the same
    table (JVM)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = re.findall(r"^\| `(.+?)` \| `([0-9a-f]{16})` \|$", text, re.M)
    stream = re.search(r"^Stream `(.+?)` .*?: `([0-9a-f]{16})`", text, re.M)
    if len(rows) < 15 or stream is None:
        raise ValueError("%s: the test vectors' table was not found" % path)
    return rows, (stream.group(1).replace("\\n", "\n"), stream.group(2))


MISSING = object()


def resolve_pointer(document, pointer):
    """RFC 6901 on a json.loads value (duplicate keys: the last wins, as in json)."""
    if pointer == "":
        return document
    value = document
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            if token not in value:
                return MISSING
            value = value[token]
        elif isinstance(value, list):
            if not token.isdigit() or (len(token) > 1 and token[0] == "0") or int(token) >= len(value):
                return MISSING
            value = value[int(token)]
        else:
            return MISSING
    return value


def render_cell(value, column_type):
    """One cell as the core's test renders it: null, a decimal int64, a double's bits in hex,
    true/false, a string's UTF-8 in hex; MISMATCH where the value is not of the type."""
    if value is MISSING or value is None:
        return "null"
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if column_type == "int64":
        if isinstance(value, int) and not isinstance(value, bool) and -(1 << 63) <= value < (1 << 63):
            return str(value)
    elif column_type == "float64":
        if is_number:
            return "%016x" % double_bits(float(value))
    elif column_type == "boolean":
        if isinstance(value, bool):
            return "true" if value else "false"
    elif column_type == "string":
        if isinstance(value, str):
            return value.encode("utf-8", "surrogatepass").hex()
    return "MISMATCH"


def checksum_of_file(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    stream = path.endswith(".ndjson") or path.endswith(".jsonl")
    return stream_checksum(text) if stream else document_checksum(text)


def main(argv):
    sys.setrecursionlimit(20000)  # json's scanner recurses once per nesting level
    if len(argv) >= 3 and argv[0] == "files":
        with open(argv[1], "w") as out:
            for path in argv[2:]:
                out.write("%016x  %s\n" % (checksum_of_file(path), path))
        return 0
    if len(argv) == 3 and argv[0] == "corpus":
        data = argv[2]
        paths = (sorted(glob.glob(os.path.join(data, "jsonexamples", "*.json"))) +
                 sorted(glob.glob(os.path.join(data, "ndjson", "*.ndjson"))) +
                 sorted(glob.glob(os.path.join(data, "jsonchecker", "minefield", "y_*.json"))))
        if not paths:
            sys.stderr.write("no corpus under %s (set SIMDBRIDGE_DATA, or run make data)\n" % data)
            return 1
        with open(argv[1], "w") as out:
            for path in paths:
                out.write("%016x  %s\n" % (checksum_of_file(path), os.path.relpath(path, data)))
        return 0
    if len(argv) == 2 and argv[0] == "vectors":
        rows, (stream_text, stream_want) = spec_vectors()
        with open(argv[1], "w") as out:
            for text, want in rows:
                if "%016x" % document_checksum(text) != want:
                    sys.stderr.write("the reference disagrees with the contract on %s\n" % text)
                    return 1
                out.write("%s %s\n" % (want, text.encode("utf-8").hex()))
            if "%016x" % stream_checksum(stream_text) != stream_want:
                sys.stderr.write("the reference disagrees with the contract's stream vector\n")
                return 1
            out.write("%s %s\n" % (stream_want, stream_text.encode("utf-8").hex()))
        return 0
    if len(argv) >= 4 and argv[0] == "extract":
        columns = [spec.rsplit(":", 1) for spec in argv[3:]]
        with open(argv[2], "rb") as f, open(argv[1], "w") as out:
            for line in f.read().decode("utf-8").split("\n"):
                if not line.strip(" \t\r"):
                    continue
                document = json.loads(line)
                out.write("\t".join(render_cell(resolve_pointer(document, p), t) for p, t in columns) + "\n")
        return 0
    if len(argv) == 4 and argv[0] in ("random", "random-streams"):
        rng = random.Random(int(argv[2]))
        streams = argv[0] == "random-streams"
        with open(argv[1], "w") as out:
            for i in range(int(argv[3])):
                text = random_stream(rng) if streams else random_document(rng, i)
                h = stream_checksum(text) if streams else document_checksum(text)
                out.write("%016x %s\n" % (h, text.encode("utf-8", "surrogatepass").hex()))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
