#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: unit tests
# (cmocka) and integration/fault tests (pytest against the real binary) under
# ctest, then every libFuzzer target for a bounded time.
#   deploy/dev/test.sh             the suite on a test build (failpoints on)
#   deploy/dev/test.sh --sanitize  the suite under ASan + UBSan (no fuzzing)
# FUZZ_SECONDS (default 20) bounds each fuzz target's run; FUZZ_SEED (default
# 1) makes the run repeatable, so a red run can be replayed exactly (longer
# runs with other seeds are for hunting, not for the gate).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bash deploy/dev/setup-debian.sh test
# The client-compatibility tests' npm packages (pinned by package-lock.json).
npm ci --prefix tests/clients/js --no-audit --no-fund --loglevel=error >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)

mode=${1:-normal}
case "$mode" in
  normal) build=build/test; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  --sanitize) build=build/asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DMUSCLES_SANITIZE=ON) ;;
  *) echo "usage: $0 [--sanitize]" >&2; exit 2 ;;
esac

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

cmake -S . -B "$build" -DMUSCLES_FAILPOINTS=ON "${flags[@]}" >/dev/null
cmake --build "$build" -j "$jobs"

if [ "$mode" = normal ]; then
  # Fuzz smoke run first, so the last lines printed are ctest's summary.
  cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMUSCLES_FUZZ=ON -DMUSCLES_FAILPOINTS=ON >/dev/null
  cmake --build build/fuzz -j "$jobs"
  seconds=${FUZZ_SECONDS:-20}
  for target in build/fuzz/tests/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    name=$(basename "$target")
    work=$(mktemp -d)
    if [ -d "tests/fuzz/corpus/$name" ]; then cp -r "tests/fuzz/corpus/$name/." "$work/"; fi
    echo "fuzz: $name for ${seconds}s"
    "$target" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -print_final_stats=0 \
      "$work" >"$work.log" 2>&1 || {
      tail -n 60 "$work.log"; echo "fuzz: $name FAILED" >&2; exit 1; }
    rm -rf "$work" "$work.log"
  done

  # The concurrent pieces (worker pool, WAL group commit, memtable snapshots,
  # table_append) under ThreadSanitizer.
  tsan_tests=(pool_test failpoint_test wal_writer_test wal_test memtable_test table_test storage_test
              part_writer_test)
  cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMUSCLES_TSAN=ON \
    -DMUSCLES_FAILPOINTS=ON >/dev/null
  cmake --build build/tsan -j "$jobs" --target "${tsan_tests[@]}" muscles
  pattern=$(IFS='|'; echo "${tsan_tests[*]}")
  (cd build/tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --output-on-failure -R "^unit\.($pattern)\$")
  # INSERT's parser threads, in the real server (a race report stops it,
  # and the harness fails a server that does not exit with 0).
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 MUSCLES_BIN="$PWD/build/tsan/muscles" \
    /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/integration/test_parallel_parsing.py
fi

cd "$build"
if [ "$mode" = normal ]; then
  ctest --output-on-failure -j "$jobs"
else
  # The differential run compares answers with ClickHouse; the sanitizers add
  # nothing to it, and the corpus itself (test `sql`) runs under them. The 5 GiB
  # insert measures the server's memory, which ASan's shadow memory is not.
  ctest --output-on-failure -j "$jobs" -E '^(sql_differential|big_insert)$'
fi
