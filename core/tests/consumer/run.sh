#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the core from BUILD_DIR into a scratch prefix, then builds and runs a user's program
# against it three ways: find_package, pkg-config, and add_subdirectory of the sources.
set -euo pipefail
build_dir=$1 source_dir=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/include/simdbridge/simdbridge.h"
test -f "$work/prefix/lib/pkgconfig/simdbridge.pc" || test -f "$work"/prefix/lib/*/pkgconfig/simdbridge.pc

echo "-- find_package(simdbridge)"
cmake -S "$here" -B "$work/find_package" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/find_package" -j 2 > /dev/null
"$work/find_package/consumer"

echo "-- pkg-config simdbridge"
pc_dir=$(dirname "$(find "$work/prefix" -name simdbridge.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs simdbridge)
g++ -std=c++17 -O2 "$here/main.cpp" -o "$work/pkg_config_consumer" $flags
"$work/pkg_config_consumer"

echo "-- add_subdirectory(core)"
cmake -S "$here" -B "$work/add_subdirectory" -DSIMDBRIDGE_SOURCE_DIR="$source_dir" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/add_subdirectory" -j 2 > /dev/null
"$work/add_subdirectory/consumer"
