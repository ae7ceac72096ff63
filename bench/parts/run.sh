#!/usr/bin/env bash
# bench/parts/run.sh: the parts benchmark. Builds bench_parts (Release, in
# build/bench), runs it (muscles: inserts synced through the WAL, flush to
# parts, bytes on disk), then starts ClickHouse 18.16 on 127.0.0.1 with a
# temporary data folder, loads the same rows with the same ORDER BY and
# codec (LZ4) in inserts of the same size, and prints one table of both
# with ratios. Removes its temporary folder and stops the ClickHouse
# server it started (only that pid), also on failure.
# Usage: bash bench/parts/run.sh [ROWS]      (default 2000000)
set -euo pipefail

ROWS=${1:-2000000}
if [[ ! $ROWS =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: bash bench/parts/run.sh [ROWS]" >&2
    exit 2
fi
BATCH_ROWS=10000
WRITERS=4
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/clickhouse.sh
source "$REPO/bench/lib/clickhouse.sh"
BUILD=$REPO/build/bench

work=""
load_pids=() # the curl processes of load_clickhouse

# Stops the server this script started (by its pid, never by name) and
# removes the temporary folder.
cleanup() {
    local rc=$? pid
    for pid in "${load_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    stop_clickhouse
    if [[ -n $work ]]; then rm -rf "$work"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

build_bench() {
    if [[ ! -f $BUILD/CMakeCache.txt ]]; then
        cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMUSCLES_TESTS=OFF \
            >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; die "cmake failed"; }
    fi
    cmake --build "$BUILD" --target bench_parts -j2 >>"$work/build.log" 2>&1 ||
        { tail -30 "$work/build.log" >&2; die "build of bench_parts failed"; }
}

# One curl per writer, one POST (one INSERT) per batch file, over one
# keep-alive connection; files are dealt out round-robin.
load_worker() {
    local index=$1 args=() i
    local url="http://$HOST:$http_port/?query=INSERT%20INTO%20events%20FORMAT%20TabSeparated"
    for ((i = index; i < ${#batch_files[@]}; i += WRITERS)); do
        if ((${#args[@]} > 0)); then args+=(--next); fi
        args+=(-sS --fail-with-body --data-binary "@${batch_files[i]}" "$url")
    done
    if ((${#args[@]} > 0)); then exec curl "${args[@]}"; fi
}

load_clickhouse() {
    chq "CREATE TABLE events (ts DateTime, user_id UInt64, event String, url String,
         status UInt16, duration_ms Float64, bytes UInt32)
         ENGINE = MergeTree ORDER BY (event, ts) SETTINGS index_granularity = 8192"
    mkdir "$work/batches"
    split -l "$BATCH_ROWS" -a 6 -d "$work/events.tsv" "$work/batches/b"
    rm "$work/events.tsv"
    batch_files=("$work"/batches/b*)
    local start end i
    start=$(now)
    for ((i = 0; i < WRITERS; i++)); do
        load_worker "$i" >"$work/load.$i.log" 2>&1 &
        load_pids+=($!)
    done
    for i in "${!load_pids[@]}"; do
        wait "${load_pids[i]}" ||
            { cat "$work/load.$i.log" >&2; die "ClickHouse insert failed"; }
    done
    end=$(now)
    load_pids=()
    ch_load_s=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
}

# OPTIMIZE ... FINAL is silently a no-op while background merges hold
# parts (18.16, optimize_throw_if_noop=0): wait for them and repeat until
# one part is left (bounded: 60 s).
merge_clickhouse() {
    local start parts deadline
    start=$(now)
    deadline=$((SECONDS + 60))
    while ((SECONDS < deadline)); do
        if [[ $(chq "SELECT count() FROM system.merges WHERE database = 'default'
                     AND table = 'events'") != 0 ]]; then
            sleep 0.1
            continue
        fi
        chq "OPTIMIZE TABLE events FINAL"
        parts=$(chq "SELECT count() FROM system.parts WHERE active AND database = 'default'
                     AND table = 'events'")
        if [[ $parts == 1 ]]; then break; fi
    done
    [[ $parts == 1 ]] || die "ClickHouse did not merge events into one part within 60 s"
    ch_optimize_s=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
}

# Where the bytes go: muscles' files of the one-part run beside ClickHouse's
# columns after OPTIMIZE FINAL (one part).
print_files() {
    local name mu ch
    echo
    echo "bytes per column, one part each (muscles single run, ClickHouse merged):"
    file_row "column" "muscles .bin" "CH .bin" "ratio"
    while IFS=$'\t' read -r name ch; do
        mu=$(awk -v f="$name.bin" '$1 == "FILE" && $2 == "single" && $3 == f { print $4 }' \
            "$work/muscles.out")
        file_row "$name" "${mu:--}" "$ch" "$(ratio "${mu:-0}" "$ch")"
    done < <(chq "SELECT name, data_compressed_bytes FROM system.columns
                  WHERE database = 'default' AND table = 'events' FORMAT TabSeparated")
    mu=$(awk '$1 == "FILE" && $2 == "single" && $3 == "marks" { print $4 }' "$work/muscles.out")
    ch=$(chq "SELECT sum(marks_bytes) FROM system.parts WHERE active AND database = 'default'
              AND table = 'events'")
    file_row "marks" "${mu:--}" "$ch" "$(ratio "${mu:-0}" "$ch")"
    mu=$(awk '$1 == "FILE" && $2 == "single" && $3 !~ /\.bin$/ && $3 != "marks" &&
              $3 != "flushed_lsn" { s += $4 } END { print s + 0 }' "$work/muscles.out")
    ch=$(chq "SELECT sum(bytes_on_disk - data_compressed_bytes - marks_bytes) FROM system.parts
              WHERE active AND database = 'default' AND table = 'events'")
    file_row "other files" "$mu" "$ch" "$(ratio "$mu" "$ch")"
    echo "(muscles other: manifest, idx/minmax_*.idx; ClickHouse: primary.idx," \
        "checksums.txt, columns.txt, count.txt)"
}

parts_query="SELECT count(), sum(rows), sum(bytes_on_disk) FROM system.parts
             WHERE active AND database = 'default' AND table = 'events' FORMAT TabSeparated"
check_query="SELECT count(), sum(toUInt32(ts)), sum(user_id), sum(status), sum(bytes),
             sum(length(url)) FROM events FORMAT TabSeparated"

# key=value from bench_parts' "RESULT <run> ..." line.
result() { awk -v run="$1" -v key="$2" '$1 == "RESULT" && $2 == run {
    for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == key) print kv[2] } }' \
    "$work/muscles.out"; }

file_row() { printf '%-24s %14s %14s %9s\n' "$@"; }
table_row() { printf '%-52s %14s %14s %9s\n' "$@"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }

print_table() {
    local d_ins s_ins ch_ins d_bytes s_bytes d_parts
    d_ins=$(result default insert_rows_per_s)
    s_ins=$(result single insert_rows_per_s)
    d_bytes=$(result default bytes_on_disk)
    s_bytes=$(result single bytes_on_disk)
    d_parts=$(result default parts)
    ch_ins=$(awk -v n="$ROWS" -v s="$ch_load_s" 'BEGIN { printf "%.0f", n / s }')
    echo
    echo "== bench/parts: $ROWS rows, $(( (ROWS + BATCH_ROWS - 1) / BATCH_ROWS )) inserts" \
        "of $BATCH_ROWS rows from $WRITERS writers, ORDER BY (event, ts), LZ4 =="
    table_row "" "muscles" "ClickHouse" "ratio"
    table_row "insert rows/s, flush_rows 1Mi ($d_parts part(s))" "$d_ins" "$ch_ins" \
        "$(ratio "$d_ins" "$ch_ins")"
    table_row "insert rows/s, one flush (1 part)" "$s_ins" "$ch_ins" \
        "$(ratio "$s_ins" "$ch_ins")"
    table_row "flush rows/s (one flush, timed alone)" "$(result single flush_rows_per_s)" \
        "-" "-"
    table_row "flush MB/s of raw column data (one flush)" \
        "$(result single flush_mb_per_s)" "-" "-"
    table_row "bytes on disk: 1Mi flushes vs CH as loaded ($ch_parts_before parts)" \
        "$d_bytes" "$ch_bytes_before" "$(ratio "$d_bytes" "$ch_bytes_before")"
    table_row "bytes on disk: 1Mi flushes vs CH after OPTIMIZE FINAL" "$d_bytes" \
        "$ch_bytes_after" "$(ratio "$d_bytes" "$ch_bytes_after")"
    table_row "bytes on disk: one part vs CH after OPTIMIZE FINAL *" "$s_bytes" \
        "$ch_bytes_after" "$(ratio "$s_bytes" "$ch_bytes_after")"
    cat <<EOF
Ratios are muscles / ClickHouse (aim: insert >= 1.00x, bytes <= 1.00x).
* apples-to-apples for bytes: one fully sorted part of every row on both
  sides (CH after OPTIMIZE FINAL: $ch_parts_after part(s), merged in ${ch_optimize_s} s).
  muscles has no merges yet; "as loaded" is ClickHouse's state right after
  the inserts (one part per insert, partly merged in the background).
- muscles syncs every insert: table_append returns after the WAL's
  fdatasync, and parts are fsynced on flush. ClickHouse 18.16 does not
  fsync parts on INSERT: its rate is for page-cache writes.
- muscles inserts are in-process table_append calls of column batches and
  its rate runs until every row is in a synced part (table_flush done);
  ClickHouse's are HTTP POSTs of TabSeparated text it parses ($WRITERS curl
  connections), each INSERT returning once its part is written.
EOF
}

main() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/bench_parts_run.XXXXXX")
    chmod 755 "$work"
    ensure_packages
    build_bench
    echo "--- muscles (bench_parts) ---"
    "$BUILD/bench/bench_parts" --rows "$ROWS" --batch-rows "$BATCH_ROWS" --threads "$WRITERS" \
        --dir "$work" --tsv "$work/events.tsv" | tee "$work/muscles.out" |
        grep -v -E '^(RESULT|FILE|CHECK)'
    local expected
    expected=$(awk -F'\t' '$1 == "CHECK" { $1 = ""; sub(/^ /, ""); gsub(/ /, "\t"); print }' \
        "$work/muscles.out")
    start_clickhouse
    echo "--- ClickHouse $(chq "SELECT version()") on $HOST:$http_port ---"
    load_clickhouse
    read -r ch_parts_before ch_rows_before ch_bytes_before < <(chq "$parts_query")
    local got
    got=$(chq "$check_query")
    [[ $got == "$expected" ]] ||
        die "ClickHouse holds other rows than muscles: got '$got', expected '$expected'"
    [[ $ch_rows_before == "$ROWS" ]] || die "system.parts counts $ch_rows_before rows"
    echo "loaded $ROWS rows in $ch_load_s s; $ch_parts_before active parts," \
        "$ch_bytes_before bytes; sums match muscles"
    merge_clickhouse
    read -r ch_parts_after ch_rows_after ch_bytes_after < <(chq "$parts_query")
    [[ $ch_rows_after == "$ROWS" ]] || die "system.parts counts $ch_rows_after rows after merge"
    echo "merged to $ch_parts_after part(s) in $ch_optimize_s s (OPTIMIZE TABLE events FINAL," \
        "after background merges): $ch_bytes_after bytes"
    print_files
    print_table
}

main
