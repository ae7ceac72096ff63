#!/usr/bin/env bash
# Installs what is missing, builds a release binary into build/release and
# starts the server with the built-in default settings: data under ./data,
# HTTP on 127.0.0.1:8123. Extra arguments go to `muscles server`
# (e.g. --config muscles.yaml); MUSCLES_* variables override settings.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bash deploy/dev/setup-debian.sh build
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DMUSCLES_TESTS=OFF \
  -DMUSCLES_BENCH=OFF >/dev/null
cmake --build build/release -j "$jobs" --target muscles
exec ./build/release/muscles server "$@"
