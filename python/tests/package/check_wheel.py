# SPDX-License-Identifier: Apache-2.0
"""Installs the wheel as a user would and checks that it stands alone.

Run by `make test` (test-package) with the wheel `make dist` built: a new virtual environment in
a scratch directory outside the repository, the wheel installed with no index, then, from
there, `ldd` of the extension must resolve simdjson inside the wheel, the running process must
map no system libsimdjson, and a smoke test reads and writes JSON, NDJSON and MessagePack.
"""
import glob
import os
import subprocess
import sys
import tempfile

SMOKE = r'''
import json, os, sys
import simdbridge
assert simdbridge.__file__.startswith(sys.prefix), simdbridge.__file__
doc = b'{"a": [1, 2.5, "x\u00e9", null, true], "b": {"c": -7}}'
assert simdbridge.loads(doc) == json.loads(doc)
assert simdbridge.dumps({"a": [1, 2.5]}, indent=2) == json.dumps({"a": [1, 2.5]}, indent=2)
assert simdbridge.parse(doc)["b"]["c"] == -7
assert [r["i"] for r in simdbridge.loads_many(b'{"i":1}\n{"i":2}\n')] == [1, 2]
assert simdbridge.msgpack_to_json(simdbridge.json_to_msgpack(b'{"k":[1,"v"]}')) == b'{"k":[1,"v"]}'
try:
    simdbridge.loads(b'{"a": [1,}')
except simdbridge.JSONDecodeError as e:
    assert e.pos == 9, e.pos
else:
    raise AssertionError("no error")
maps = open("/proc/self/maps").read()
libs = sorted({line.split()[-1] for line in maps.splitlines() if "libsimdjson" in line})
assert libs and all("simdbridge.libs" in p for p in libs), libs
print("smoke test passed:", simdbridge.__version__, libs[0])
'''


def main() -> int:
    wheels = glob.glob(os.path.join(sys.argv[1], "simdbridge-*manylinux*.whl"))
    if len(wheels) != 1:
        print("check_wheel: expected one manylinux wheel in %s, found %s" % (sys.argv[1], wheels))
        return 1
    wheel = os.path.abspath(wheels[0])
    with tempfile.TemporaryDirectory(prefix="simdbridge-wheel-") as scratch:
        venv = os.path.join(scratch, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-index", wheel], check=True, cwd=scratch)
        site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"],
                              check=True, capture_output=True, text=True, cwd=scratch).stdout.strip()
        extension = glob.glob(os.path.join(site, "simdbridge", "_core.*.so"))[0]
        ldd = subprocess.run(["ldd", extension], check=True, capture_output=True, text=True).stdout
        simdjson = [line for line in ldd.splitlines() if "libsimdjson" in line]
        print("ldd:", *simdjson)
        resolved = [os.path.normpath(line.split("=>")[1].split("(")[0].strip()) for line in simdjson]
        if len(resolved) != 1 or not resolved[0].startswith(os.path.join(site, "simdbridge.libs") + os.sep):
            print("check_wheel: the extension does not resolve simdjson inside the wheel:\n" + ldd)
            return 1
        # No library path from the caller's environment reaches the loader.
        env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD", "PYTHONPATH")}
        subprocess.run([python, "-I", "-c", SMOKE], check=True, cwd=scratch, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
