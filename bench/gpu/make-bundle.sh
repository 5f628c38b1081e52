#!/bin/bash
# Packs what Corral needs to run on a machine with no JDK and no network (a lent GPU node):
# a jlinked Java runtime and build/lib, as build/device.tar.xz (about 30 MB). Run after
# `./mvnw -B -DskipTests package`. bench/gpu/gpu-e2e.sh unpacks and uses it there.
set -euo pipefail
cd "$(dirname "$0")/../.."
. libexec/find-java.sh
corral_find_java
out=build/device
rm -rf "$out" && mkdir -p "$out/lib"
modules=$("$CORRAL_JAVA_HOME/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release "$CORRAL_JAVA_MAJOR" \
  build/lib/*.jar | tr ',' '\n' | grep -v '^java.desktop$' | paste -sd,) # java.desktop: only the CLI's YAML output
"$CORRAL_JAVA_HOME/bin/jlink" --add-modules "$modules,jdk.crypto.ec" --strip-debug --no-header-files \
  --no-man-pages --compress=zip-9 --output "$out/jre"
strip --strip-unneeded "$out/jre/lib/server/libjvm.so" 2>/dev/null || true
cp build/lib/*.jar "$out/lib/"
# sqlite-jdbc carries natives for 20 platforms; keep this one's
tmp=$(mktemp -d)
(cd "$tmp" && unzip -q "$OLDPWD/build/lib/sqlite-jdbc.jar" && find org/sqlite/native -mindepth 2 -maxdepth 2 -type d \
  ! -path org/sqlite/native/Linux/x86_64 -exec rm -rf {} + && rm -f "$OLDPWD/$out/lib/sqlite-jdbc.jar" \
  && zip -q -r -X "$OLDPWD/$out/lib/sqlite-jdbc.jar" .)
rm -rf "$tmp"
tar -C build -cJf build/device.tar.xz device
du -sh build/device.tar.xz
