#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages the build needs, where they are missing. `make` calls it before
# anything else, so that `make test` and `make bench` work on a fresh Debian 12 machine.
#
#   tools/install_deps.sh core      C++ core, CLI and tests
#   tools/install_deps.sh jvm       + Maven (the JDK 25 itself is checked, not installed)
#   tools/install_deps.sh python    + python3-venv
#   tools/install_deps.sh fuzz      + clang 14 and its libFuzzer runtime (make fuzz)
set -euo pipefail

packages=(cmake ninja-build g++ make pkg-config libsimdjson-dev libgtest-dev python3 unzip)
for area in "$@"; do
  case "$area" in
    core) ;;
    jvm) packages+=(maven) ;;
    python) packages+=(python3-venv python3-dev) ;;
    fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    *) echo "install_deps.sh: unknown area $area" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install_deps: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
