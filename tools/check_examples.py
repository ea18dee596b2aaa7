# SPDX-License-Identifier: Apache-2.0
"""Runs the examples of README.md, CONTRIBUTING.md and docs/*.md as a user would (make test).

    check_examples.py ROOT

Every fenced block is checked by its language (the first word of its info string):

- python: run, in a new process, in a scratch directory.
- cpp: compiled, linked against the core (libsimdbridge.a and simdjson, as docs/cpp.md says)
  and run. A block with an #include is a whole program's body and must include what it uses;
  a block without one is a fragment and gets the core's headers and the usual standard ones.
- java: compiled (javac) against the library, Arrow Java and Spark: the records and classes it
  declares become members of a class, its statements the body of a method. `...` stands for
  code the reader fills in, and is dropped.
- sh: the lines that start with "$ " are run (with build/bin on PATH); the lines after one, up
  to the next, are its expected output where there are any. Blocks without a prompt (make,
  cmake, pip, spark-submit) are left to the tests that do the same (cmake_package,
  test-package).

The names examples use without defining them are a user's own data, defined here once per
language (CONTEXT_*) for the names that a block uses and does not declare; the scratch
directory holds what examples open: twitter.json and canada.json (from the corpus),
events.ndjson (the first 500 events of GH Archive), broken.json (BROKEN_JSON).
A block whose info string has a second word "no-run" is skipped, and must say why in the text.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

BROKEN_JSON = '{"id": 1 "name": "x"}\n'

CONTEXT_PYTHON = {
    "data": 'data = open("twitter.json", "rb").read()',
    "ndjson": 'ndjson = open("events.ndjson", "rb").read()',
    "ndjson_bytes": 'ndjson_bytes = open("events.ndjson", "rb").read()',
    "obj": 'obj = {"a": [1, 2.5, "x", None, True], "b": {"c": "é"}}',
    "objects": 'objects = [{"a": 1}, {"b": [2.5, None]}]',
    "pyarrow": "import pyarrow",
    "pathlib": "import pathlib",
}

CONTEXT_CPP = {
    "in": 'simdbridge::input in = simdbridge::input::copy_of("{\\"id\\":\\"1\\",\\"actor\\":{\\"login\\":\\"a\\"}}\\n");',
    "schema": "ArrowSchema schema{};\nsimdbridge::infer_arrow_schema(in, {}, &schema);",
}
CPP_FRAGMENT_HEADERS = ["cstdint", "cstdio", "string", "vector", "simdbridge/simdbridge.h", "simdbridge/arrow.h",
                        "simdbridge/msgpack.h"]

CONTEXT_JAVA = {
    "bytes": 'static byte[] bytes = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);',
    "outputStream": "static OutputStream outputStream = new ByteArrayOutputStream();",
    "spark": "static SparkSession spark;",
    "root": "static VectorSchemaRoot root;",
    "schema": None,  # an Arrow Schema, or a Spark StructType in a Spark example: see java_program
}
JAVA_IMPORTS = """import io.simdbridge.*;
import io.simdbridge.json.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;
import org.apache.arrow.memory.*;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.*;
import org.apache.spark.sql.types.*;
"""


def blocks(path):
    """(line number, language, options, text) of each fenced block."""
    out, current = [], None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                if current is None:
                    words = line[3:].split()
                    current = (number, words[0] if words else "", words[1:], [])
                else:
                    out.append((current[0], current[1], current[2], "".join(current[3])))
                    current = None
            elif current is not None:
                current[3].append(line)
    return out


def used(names, text):
    return [n for n in names if re.search(r"(?<![\w.])%s\b" % re.escape(n), text)]


def declared(name, text):
    return re.search(r"(\bimport %s\b|\b%s\s*=[^=]|\b[\w<>\[\]]+\s+%s\s*[=;({])" % ((re.escape(name),) * 3), text)


def python_program(text):
    context = [CONTEXT_PYTHON[n] for n in used(CONTEXT_PYTHON, text) if not declared(n, text)]
    return "\n".join(context + [text])


def cpp_program(text):
    complete = "#include" in text
    lines = text.splitlines()
    includes = [l for l in lines if l.startswith("#include")]
    body = [l for l in lines if not l.startswith("#include")]
    if not complete:
        includes = ["#include <%s>" % h for h in CPP_FRAGMENT_HEADERS]
    context = [CONTEXT_CPP[n] for n in used(CONTEXT_CPP, text) if not declared(n, text)]
    return "\n".join(includes + ["", "int main() {"] + context + body + ["  return 0;", "}", ""])


def java_program(text):
    text = re.sub(r"\.\.\.(?=\s*[})])", "", text.replace("{ ... }", "{ }"))
    members, body = [], []
    for line in text.splitlines():
        (members if re.match(r"(public |static )*(record|class|enum|interface) ", line) else body).append(line)
    context = []
    for n in used(CONTEXT_JAVA, text):
        if declared(n, text):
            continue
        if n == "schema":
            spark = "spark" in text or "Dataset<" in text
            context.append("static StructType schema;" if spark else
                           "static org.apache.arrow.vector.types.pojo.Schema schema;")
        else:
            context.append(CONTEXT_JAVA[n])
    return (JAVA_IMPORTS + "\nclass Example {\n" + "\n".join(context + members) +
            "\n  static void example() throws Exception {\n" + "\n".join(body) + "\n  }\n}\n")


def shell_session(text):
    """(command, expected output lines or None) for each "$ " line."""
    session = []
    for line in text.splitlines():
        if line.startswith("$ "):
            session.append([line[2:], []])
        elif session:
            session[-1][1].append(line)
    return [(c, out or None) for c, out in session]


def main(argv):
    root = os.path.abspath(argv[0])
    data = os.environ.get("SIMDBRIDGE_DATA", os.path.join(root, "..", "shared", "data"))
    python = os.path.join(root, ".venv", "bin", "python")
    java_home = os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
    with open(os.path.join(root, "jvm", "spark", "target", "classpath.txt")) as f:
        classpath = f.read().strip()
    jars = glob.glob(os.path.join(root, "jvm", "simdbridge", "target", "simdbridge-*[0-9].jar"))
    classpath = ":".join(jars + [classpath])
    core_lib = os.path.join(root, "build", "core", "libsimdbridge.a")
    env = dict(os.environ, PATH=os.path.join(root, "build", "bin") + os.pathsep + os.environ["PATH"])

    docs = [os.path.join(root, "README.md"), os.path.join(root, "CONTRIBUTING.md"),
            os.path.join(root, "python", "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    failures, checked = [], 0
    with tempfile.TemporaryDirectory(prefix="simdbridge-examples-") as scratch:
        shutil.copy(os.path.join(data, "jsonexamples", "twitter.json"), scratch)
        shutil.copy(os.path.join(data, "jsonexamples", "canada.json"), scratch)
        with open(os.path.join(data, "ndjson", "gharchive-2015-01-01-0.ndjson"), "rb") as src, \
                open(os.path.join(scratch, "events.ndjson"), "wb") as dst:
            dst.writelines(line for _, line in zip(range(500), src))
        with open(os.path.join(scratch, "broken.json"), "w") as f:
            f.write(BROKEN_JSON)

        def run(what, command, check=True, **kw):
            r = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True, **kw)
            if check and r.returncode != 0:
                failures.append("%s:\n%s%s" % (what, r.stdout, r.stderr))
            return r

        for doc in docs:
            for number, language, options, text in blocks(doc):
                where = "%s:%d (%s)" % (os.path.relpath(doc, root), number, language)
                if "no-run" in options:
                    continue
                if language == "python":
                    run(where, [python, "-c", python_program(text)], timeout=300)
                elif language == "cpp":
                    source = os.path.join(scratch, "example.cpp")
                    with open(source, "w") as f:
                        f.write(cpp_program(text))
                    binary = os.path.join(scratch, "example")
                    if run(where + " compile", ["g++", "-std=c++17", "-o", binary, source,
                                                "-I" + os.path.join(root, "core", "include"), core_lib,
                                                "-lsimdjson"]).returncode == 0:
                        run(where, [binary])
                elif language == "java":
                    source = os.path.join(scratch, "Example.java")
                    with open(source, "w") as f:
                        f.write(java_program(text))
                    run(where, [os.path.join(java_home, "bin", "javac"), "-proc:none", "-nowarn", "-d",
                                os.path.join(scratch, "classes"), "-cp", classpath, source])
                elif language == "sh" and shell_session(text):
                    # A command with its output shown may fail on purpose (validate): its output
                    # is what is checked; one without must succeed.
                    for command, expected in shell_session(text):
                        r = run("%s: $ %s" % (where, command), ["bash", "-c", command], check=expected is None)
                        output = (r.stdout + r.stderr).splitlines()
                        if expected is not None and output != expected:
                            failures.append("%s: $ %s\n  expected %s\n  printed  %s" % (where, command, expected, output))
                else:
                    continue
                checked += 1
    for f in failures:
        print("check_examples: " + f)
    print("check_examples: %d examples, %d failed" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
