#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The jar as users use it, from outside the repository: this directory's Maven project, copied to
# a scratch directory, resolves io.simdbridge:simdbridge:0.1.0 by its coordinates (installed by
# make build), then reads and writes JSON on the class path, on the module path, as a
# single-file program and in jshell. Each run prints "ok ..." or fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
java_home=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
java=$java_home/bin/java
work=$(mktemp -d /tmp/simdbridge-consumer-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$here/pom.xml" "$here/src" "$here/Probe.java" "$here/probe.jsh" "$work/"
cd "$work"
mvn -B -q -Dstyle.color=never package dependency:build-classpath -Dmdep.outputFile=classpath.txt > maven.log 2>&1 \
  || { cat maven.log; exit 1; }
cp=$(cat classpath.txt)
jar=$(tr ':' '\n' < classpath.txt | grep '/simdbridge-0.1.0.jar$')
check() { # name, command...: the command's output must start with "ok"
  local name=$1; shift
  local out
  out=$("$@" 2>&1) || { echo "consumer: $name failed:"; echo "$out"; exit 1; }
  echo "$out" | grep -q '^ok ' || { echo "consumer: $name printed:"; echo "$out"; exit 1; }
  echo "  $name: $(echo "$out" | grep '^ok ')"
}
check "class path" "$java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$cp" probe.Main
check "module path" "$java" --enable-native-access=io.simdbridge -p "target/classes:$cp" -m probe.app/probe.Main
check "single-file launch" "$java" --enable-native-access=ALL-UNNAMED -cp "$jar" Probe.java
check "jshell" "$java_home/bin/jshell" -q --class-path "$jar" -R--enable-native-access=ALL-UNNAMED probe.jsh
# What a user of Java 17 (the machine's default java) sees: the library's classes are Java 25's.
if [ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]; then
  out=$(/usr/lib/jvm/java-17-openjdk-amd64/bin/java -cp "$jar" Probe.java 2>&1 || true)
  echo "$out" | grep -q "class file has wrong version 69.0, should be 61.0" || { echo "consumer: Java 17 printed: $out"; exit 1; }
  echo "  Java 17: $(echo "$out" | grep -o 'class file has wrong version.*' | head -n 1)"
fi
