#!/usr/bin/env bash
# bench/formats/run.sh: HTTP format throughput of muscles beside ClickHouse
# 18.16 in the same run, on the same rows. Starts both servers on 127.0.0.1
# with temporary data folders, has ClickHouse generate an events/log table
# (generate.sql) and cut it into insert bodies, identical bytes for both
# servers; then times INSERT ... FORMAT <fmt> (TabSeparated, JSONEachRow,
# RowBinary, Native) and SELECT * ... FORMAT <fmt> (TabSeparated,
# JSONEachRow, ArrowStream) with curl, best of --runs, and prints rows/s,
# MB/s and the ratio muscles / ClickHouse per format, then one JSON line.
# Stops the servers it started (by pid) and removes its folder on exit.
# Usage: bash bench/formats/run.sh [--rows N] [--batch-rows B] [--runs R]
#                                  [--muscles PATH]          (see README.md)
set -euo pipefail

ROWS=2000000
BATCH_ROWS=250000
RUNS=3
MUSCLES=${MUSCLES_BIN:-}
usage() {
    echo "usage: bash bench/formats/run.sh [--rows N] [--batch-rows B] [--runs R]" \
        "[--muscles PATH]" >&2
    exit 2
}
while (($# > 0)); do
    case $1 in
    --rows) ROWS=${2:-} && shift 2 ;;
    --batch-rows) BATCH_ROWS=${2:-} && shift 2 ;;
    --runs) RUNS=${2:-} && shift 2 ;;
    --muscles) MUSCLES=${2:-} && shift 2 ;;
    *) usage ;;
    esac
done
for v in "$ROWS" "$BATCH_ROWS" "$RUNS"; do [[ $v =~ ^[1-9][0-9]*$ ]] || usage; done

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib/clickhouse.sh
source "$REPO/bench/lib/clickhouse.sh"
BUILD=$REPO/build/bench
HERE=$REPO/bench/formats

INPUT_FORMATS=(TabSeparated JSONEachRow RowBinary Native)
OUTPUT_FORMATS=(TabSeparated JSONEachRow ArrowStream)
COLUMNS="ts, service, host, level, trace_id, user_id, duration_ms, status, message"
TABLE_COLUMNS="ts DateTime, service String, host String, level String, trace_id UInt64,
    user_id UInt64, duration_ms Float64, status Nullable(UInt16), message String"
SCHEMA="($TABLE_COLUMNS) ENGINE = MergeTree ORDER BY (service, ts)"
# Same answer on both sides when they hold the same rows: no float sums
# (their order differs), strings by hash and length.
CHECK="SELECT count(), sum(toUInt32(ts)), sum(cityHash64(service)), sum(cityHash64(host)),
    sum(cityHash64(level)), sum(trace_id), sum(user_id), sum(toInt64(round(duration_ms * 1000))),
    count(status), sum(status), sum(cityHash64(message)), sum(length(message))"

work=""
mu_pid=""
mu_port=""

cleanup() {
    local rc=$?
    stop_pid "$mu_pid"
    stop_clickhouse
    if [[ -n $work ]]; then rm -rf "$work"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The muscles binary: --muscles / $MUSCLES_BIN, else built in Release into
# build/bench as bench/parts does.
build_muscles() {
    if [[ -n $MUSCLES ]]; then
        [[ -x $MUSCLES ]] || die "$MUSCLES is not an executable file"
        return
    fi
    if [[ ! -f $BUILD/CMakeCache.txt ]]; then
        cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMUSCLES_TESTS=OFF \
            >"$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; die "cmake failed"; }
    fi
    cmake --build "$BUILD" --target muscles -j2 >>"$work/build.log" 2>&1 ||
        { tail -30 "$work/build.log" >&2; die "build of muscles failed"; }
    MUSCLES=$BUILD/muscles
}

# `muscles server` with every setting at its default but the port, the
# listen address and the data folder; MUSCLES_* of the caller are dropped.
start_muscles() {
    local unset=() name
    for name in $(compgen -e); do [[ $name == MUSCLES_* ]] && unset+=(-u "$name"); done
    mu_port=$(pick_port "$http_port" "$tcp_port") || die "no free port"
    mkdir -p "$work/muscles"
    env "${unset[@]}" TZ=UTC MUSCLES_HTTP_PORT="$mu_port" MUSCLES_HTTP_LISTEN_HOST="$HOST" \
        MUSCLES_STORAGE_DATA_DIR="$work/muscles/data" "$MUSCLES" server \
        >"$work/muscles.out" 2>&1 &
    mu_pid=$!
    for _ in $(seq 1 300); do
        if curl -sf "http://$HOST:$mu_port/ready" >/dev/null 2>&1; then return; fi
        if ! kill -0 "$mu_pid" 2>/dev/null; then
            tail -30 "$work/muscles.out" >&2
            die "muscles exited during startup"
        fi
        sleep 0.1
    done
    die "muscles did not answer on $HOST:$mu_port within 30 s"
}

port_of() { if [[ $1 == muscles ]]; then echo "$mu_port"; else echo "$http_port"; fi; }

# One statement to `muscles` or `clickhouse`; the answer on stdout.
q() {
    curl -sS --fail-with-body "http://$HOST:$(port_of "$1")/" --data-binary "$2" ||
        die "$1: query failed: $2"
}

# Background merges of earlier tables must not run into the next timing.
wait_clickhouse_quiet() {
    local deadline=$((SECONDS + 120))
    while [[ $(chq "SELECT count() FROM system.merges") != 0 ]]; do
        ((SECONDS < deadline)) || die "ClickHouse merges still running after 120 s"
        sleep 0.2
    done
}

# ClickHouse generates the rows into `src` (generate.sql), then cuts them
# into one body per insert and format: identical bytes for both servers.
make_bodies() {
    chq "CREATE TABLE src (n UInt64, $TABLE_COLUMNS) ENGINE = MergeTree ORDER BY n"
    sed "s/{rows}/$ROWS/g" "$HERE/generate.sql" |
        curl -sS --fail-with-body "http://$HOST:$http_port/" --data-binary @- ||
        die "generating the rows failed"
    mkdir "$work/bodies"
    local f lo hi i
    for f in "${INPUT_FORMATS[@]}"; do
        body_bytes[$f]=0
        for ((lo = 0, i = 0; lo < ROWS; lo += BATCH_ROWS, i++)); do
            hi=$((lo + BATCH_ROWS))
            curl -sS --fail-with-body -o "$work/bodies/$f.$(printf %05d "$i")" \
                "http://$HOST:$http_port/" --data-binary \
                "SELECT $COLUMNS FROM src WHERE n >= $lo AND n < $hi ORDER BY n FORMAT $f" ||
                die "ClickHouse could not write the $f body of rows $lo-$hi"
        done
        body_bytes[$f]=$(cat "$work/bodies/$f".* | wc -c)
    done
    batches=$i
    expected=$(chq "$CHECK FROM src FORMAT TabSeparated")
    chq "DROP TABLE src"
}

# After an INSERT returned: fsync every file of each new inserted part
# (level 0: all_N_N_0), the part folders and the table folder, as
# fsync_after_insert does in later ClickHouse; 18.16 has no such setting.
declare -A synced_parts
sync_new_parts() {
    local table_dir=$ch_dir/data/data/default/$1 part name paths=()
    for part in "$table_dir"/all_*_0; do
        name=${part##*/}
        [[ -d $part && -z ${synced_parts[$name]:-} ]] || continue
        [[ $name =~ ^all_([0-9]+)_([0-9]+)_0$ && ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] ||
            continue
        synced_parts[$name]=1
        paths+=("$part"/* "$part")
    done
    paths+=("$table_dir")
    # A background merge may remove a part meanwhile; that part is merged.
    sync -- "${paths[@]}" 2>/dev/null || sync_errors=$((sync_errors + 1))
}

fsum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a + b }'; }
fmin() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b < a) print b; else print a }'; }

# One timed load of every body of format $2 into a fresh table on $1.
# Sets run_s (sum of curl's time_total: the INSERTs from first byte sent to
# the answer) and, for ClickHouse, sync_s (the fsyncs after each INSERT).
insert_run() {
    local side=$1 f=$2 file out code t url
    url="http://$HOST:$(port_of "$side")/?query=INSERT%20INTO%20ins%20FORMAT%20$f"
    q "$side" "DROP TABLE IF EXISTS ins" >/dev/null
    q "$side" "CREATE TABLE ins $SCHEMA" >/dev/null
    if [[ $side == clickhouse ]]; then wait_clickhouse_quiet; fi
    synced_parts=()
    run_s=0
    sync_s=0
    for file in "$work/bodies/$f".*; do
        out=$(curl -sS -o "$work/answer" -w '%{http_code} %{time_total}' -H 'Expect:' \
            --data-binary "@$file" "$url") || die "$side: INSERT $f failed (curl)"
        code=${out% *}
        t=${out#* }
        [[ $code == 200 ]] || die "$side: INSERT $f answered $code: $(head -c 600 "$work/answer")"
        run_s=$(fsum "$run_s" "$t")
        if [[ $side == clickhouse ]]; then
            local t0=$EPOCHREALTIME
            sync_new_parts ins
            sync_s=$(awk -v a="$sync_s" -v b="$t0" -v c="$EPOCHREALTIME" \
                'BEGIN { printf "%.6f", a + c - b }')
        fi
    done
    local got
    got=$(q "$side" "$CHECK FROM ins FORMAT TabSeparated")
    [[ $got == "$expected" ]] ||
        die "$side: after INSERT $f the table holds other rows: '$got', expected '$expected'"
    q "$side" "DROP TABLE ins" >/dev/null
}

bench_inserts() {
    local f r side
    for f in "${INPUT_FORMATS[@]}"; do
        ins_mu[$f]=""
        ins_ch[$f]=""
        ins_chs[$f]=""
        for ((r = 1; r <= RUNS; r++)); do
            # Alternate who goes first, so drift in the machine's load is shared.
            local order=(muscles clickhouse)
            if ((r % 2 == 0)); then order=(clickhouse muscles); fi
            for side in "${order[@]}"; do
                insert_run "$side" "$f"
                if [[ $side == muscles ]]; then
                    ins_mu[$f]=$(fmin "${ins_mu[$f]}" "$run_s")
                else
                    ins_ch[$f]=$(fmin "${ins_ch[$f]}" "$run_s")
                    ins_chs[$f]=$(fmin "${ins_chs[$f]}" "$(fsum "$run_s" "$sync_s")")
                fi
                printf '  insert %-13s run %d %-10s %8.3f s' "$f" "$r" "$side" "$run_s"
                if [[ $side == clickhouse ]]; then printf ' (+ %.3f s fsync)' "$sync_s"; fi
                echo
            done
        done
    done
}

# The table the SELECTs read: the RowBinary bodies on both sides (exact
# doubles: 18.16 reads some decimal texts one ulp off), in muscles flushed
# to parts, in ClickHouse with its background merges done.
load_events() {
    local side file query=INSERT%20INTO%20events%20FORMAT%20RowBinary
    for side in muscles clickhouse; do
        q "$side" "CREATE TABLE events $SCHEMA" >/dev/null
        for file in "$work/bodies/RowBinary".*; do
            curl -sS --fail-with-body -o /dev/null -H 'Expect:' --data-binary "@$file" \
                "http://$HOST:$(port_of "$side")/?query=$query" ||
                die "$side: loading events failed"
        done
        [[ $(q "$side" "$CHECK FROM events FORMAT TabSeparated") == "$expected" ]] ||
            die "$side: events holds other rows than generated"
    done
    q muscles "SYSTEM FLUSH TABLE events" >/dev/null
    wait_clickhouse_quiet
}

# Whether $1 answers SELECT ... FORMAT $2 (0), or refuses the format as
# unknown or not supported (1); anything else stops the benchmark.
format_supported() {
    local code
    code=$(curl -sS -o "$work/answer" -w '%{http_code}' "http://$HOST:$(port_of "$1")/" \
        --data-binary "SELECT * FROM events LIMIT 1 FORMAT $2") || die "$1: probe of $2 failed"
    [[ $code == 200 ]] && return 0
    grep -qE '^Code: (48|73)[.,]' "$work/answer" && return 1
    die "$1: SELECT ... FORMAT $2 answered $code: $(head -c 600 "$work/answer")"
}

# One untimed SELECT to a file: a whole answer (no error appended after the
# first bytes) with one line per row for the text formats. Prints its size.
check_output() {
    local side=$1 f=$2 out=$work/output lines
    curl -sS --fail-with-body -o "$out" "http://$HOST:$(port_of "$side")/" \
        --data-binary "SELECT * FROM events FORMAT $f" || die "$side: SELECT FORMAT $f failed"
    if tail -c 4096 "$out" | grep -aq 'DB::Exception'; then
        die "$side: SELECT FORMAT $f ended with an error: $(tail -c 600 "$out")"
    fi
    case $f in
    TabSeparated | JSONEachRow)
        lines=$(wc -l <"$out")
        [[ $lines == "$ROWS" ]] || die "$side: SELECT FORMAT $f gave $lines lines, not $ROWS"
        ;;
    ArrowStream)
        # The stream ends with the end-of-stream marker: continuation, length 0.
        [[ $(tail -c 8 "$out" | od -An -tx1 | tr -d ' \n') == ffffffff00000000 ]] ||
            die "$side: the ArrowStream answer has no end-of-stream marker"
        ;;
    esac
    wc -c <"$out"
    rm -f "$out"
}

select_run() {
    local side=$1 f=$2 out
    out=$(curl -sS -o /dev/null -w '%{http_code} %{size_download} %{time_total}' \
        "http://$HOST:$(port_of "$side")/" --data-binary "SELECT * FROM events FORMAT $f") ||
        die "$side: SELECT FORMAT $f failed (curl)"
    read -r code run_bytes run_s <<<"$out"
    [[ $code == 200 ]] || die "$side: SELECT FORMAT $f answered $code"
}

bench_selects() {
    local f r side fmt
    for f in "${OUTPUT_FORMATS[@]}"; do
        sel_mu[$f]=""
        sel_ch[$f]=""
        sel_mu_bytes[$f]=""
        sel_ch_format[$f]=$f
        if ! format_supported clickhouse "$f"; then sel_ch_format[$f]=Native; fi
        local sides=(clickhouse)
        if format_supported muscles "$f"; then
            sides=(muscles clickhouse)
            sel_mu_bytes[$f]=$(check_output muscles "$f")
        fi
        sel_ch_bytes[$f]=$(check_output clickhouse "${sel_ch_format[$f]}")
        for ((r = 1; r <= RUNS; r++)); do
            local order=("${sides[@]}")
            if ((r % 2 == 0 && ${#sides[@]} == 2)); then order=(clickhouse muscles); fi
            for side in "${order[@]}"; do
                fmt=$f
                if [[ $side == clickhouse ]]; then fmt=${sel_ch_format[$f]}; fi
                select_run "$side" "$fmt"
                if [[ $side == muscles ]]; then
                    sel_mu[$f]=$(fmin "${sel_mu[$f]}" "$run_s")
                else
                    sel_ch[$f]=$(fmin "${sel_ch[$f]}" "$run_s")
                fi
                printf '  select %-13s run %d %-10s %8.3f s  %d bytes (%s)\n' "$f" "$r" "$side" \
                    "$run_s" "$run_bytes" "$fmt"
            done
        done
    done
}

# rows/s and MB/s (10^6 bytes) of `rows` and `bytes` in `seconds`.
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", b / s / 1e6 }'; }
# muscles / ClickHouse throughput from their times (muscles' first).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'; }

print_tables() {
    local f
    echo
    echo "== bench/formats: $ROWS rows, best of $RUNS; ratio = muscles / ClickHouse" \
        "(aim >= 1.00x) =="
    echo
    local per=$((ROWS < BATCH_ROWS ? ROWS : BATCH_ROWS))
    echo "INSERT INTO ins FORMAT <fmt>: $batches POST(s) of up to $per rows, one at a time," \
        "the same bodies to both"
    printf '%-13s %9s | %10s %7s | %10s %7s %6s | %10s %7s %6s\n' "" "body" \
        "muscles" "" "ClickHouse" "" "" "CH+fsync" "" ""
    printf '%-13s %9s | %10s %7s | %10s %7s %6s | %10s %7s %6s\n' "format" "MB" \
        "rows/s" "MB/s" "rows/s" "MB/s" "ratio" "rows/s" "MB/s" "ratio"
    for f in "${INPUT_FORMATS[@]}"; do
        local b=${body_bytes[$f]} m=${ins_mu[$f]} c=${ins_ch[$f]} s=${ins_chs[$f]}
        printf '%-13s %9.1f | %10s %7s | %10s %7s %5sx | %10s %7s %5sx\n' "$f" \
            "$(awk -v b="$b" 'BEGIN { print b / 1e6 }')" \
            "$(rate "$ROWS" "$m")" "$(mbps "$b" "$m")" \
            "$(rate "$ROWS" "$c")" "$(mbps "$b" "$c")" "$(ratio "$m" "$c")" \
            "$(rate "$ROWS" "$s")" "$(mbps "$b" "$s")" "$(ratio "$m" "$s")"
    done
    cat <<EOF
Durability of an acknowledged INSERT:
- muscles: every INSERT answers 200 once it is durable and atomic: an
  insert of more than 65,536 rows (all of them here) is written as sorted,
  compressed parts, every file and folder fsynced, committed by a WAL
  record that is fdatasync'ed (a smaller one is one fdatasync'ed WAL
  record, its part written later by the flusher).
- ClickHouse: 18.16 writes one part per INSERT to the page cache and does
  not fsync it; no setting makes it (fsync settings in its
  system.merge_tree_settings: ${ch_fsync_settings:-none}).
  "ClickHouse" is that. "CH+fsync" adds, after each INSERT, an fsync of
  every file of its new part, the part folder and the table folder
  (coreutils sync, run by this script), as later versions' MergeTree
  setting fsync_after_insert does.
Times are curl's time_total per POST (request sent to answer read), summed.
EOF
    echo
    echo "SELECT * FROM events FORMAT <fmt>: $ROWS rows read to the end by curl"
    printf '%-13s | %10s %7s %9s | %-12s %10s %7s %9s | %6s\n' "format" \
        "muscles" "MB/s" "MB" "CH format" "CH rows/s" "MB/s" "MB" "ratio"
    for f in "${OUTPUT_FORMATS[@]}"; do
        local m=${sel_mu[$f]} c=${sel_ch[$f]} cb=${sel_ch_bytes[$f]} mb=${sel_mu_bytes[$f]}
        if [[ -n $m ]]; then
            printf '%-13s | %10s %7s %9.1f | ' "$f" "$(rate "$ROWS" "$m")" "$(mbps "$mb" "$m")" \
                "$(awk -v b="$mb" 'BEGIN { print b / 1e6 }')"
        else
            printf '%-13s | %-28s | ' "$f" "not supported by this build"
        fi
        printf '%-12s %10s %7s %9.1f | ' "${sel_ch_format[$f]}" "$(rate "$ROWS" "$c")" \
            "$(mbps "$cb" "$c")" "$(awk -v b="$cb" 'BEGIN { print b / 1e6 }')"
        if [[ -n $m ]]; then echo "$(ratio "$m" "$c")x"; else echo "-"; fi
    done
    if [[ ${sel_ch_format[ArrowStream]} != ArrowStream ]]; then
        echo "ClickHouse 18.16 has no ArrowStream output (Code 73, unknown format): its row" \
            "is its Native output, the closest columnar binary format it has."
    fi
    echo "ClickHouse reads with max_threads=$ch_max_threads (its default here); muscles' SELECT" \
        "runs on one thread."
}

json_num() { if [[ -n $1 ]]; then echo "$1"; else echo null; fi; }

print_json() {
    local f first=1 m c s
    printf '{"bench":"formats","date":"%s","rows":%d,"batch_rows":%d,"runs":%d,' \
        "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$ROWS" "$BATCH_ROWS" "$RUNS"
    printf '"clickhouse_version":"%s","cores":%d,' "$ch_version" "$(nproc)"
    printf '"durability":{"muscles":"wal_fdatasync_per_insert","clickhouse":"page_cache",'
    printf '"clickhouse_fsync":"fsync_of_new_part_files_after_each_insert"},"insert":['
    for f in "${INPUT_FORMATS[@]}"; do
        m=${ins_mu[$f]} c=${ins_ch[$f]} s=${ins_chs[$f]}
        ((first)) || printf ','
        first=0
        printf '{"format":"%s","body_bytes":%d,"muscles_s":%s,"muscles_rows_per_s":%s,' \
            "$f" "${body_bytes[$f]}" "$m" "$(rate "$ROWS" "$m")"
        printf '"muscles_mb_per_s":%s,"clickhouse_s":%s,"clickhouse_rows_per_s":%s,' \
            "$(mbps "${body_bytes[$f]}" "$m")" "$c" "$(rate "$ROWS" "$c")"
        printf '"clickhouse_mb_per_s":%s,"ratio":%s,"clickhouse_fsync_s":%s,' \
            "$(mbps "${body_bytes[$f]}" "$c")" "$(ratio "$m" "$c")" "$s"
        printf '"clickhouse_fsync_rows_per_s":%s,"ratio_vs_fsync":%s}' \
            "$(rate "$ROWS" "$s")" "$(ratio "$m" "$s")"
    done
    printf '],"select":['
    first=1
    for f in "${OUTPUT_FORMATS[@]}"; do
        m=${sel_mu[$f]} c=${sel_ch[$f]}
        ((first)) || printf ','
        first=0
        printf '{"format":"%s","muscles_supported":%s,' "$f" \
            "$([[ -n $m ]] && echo true || echo false)"
        if [[ -n $m ]]; then
            printf '"muscles_bytes":%d,"muscles_s":%s,"muscles_rows_per_s":%s,' \
                "${sel_mu_bytes[$f]}" "$m" "$(rate "$ROWS" "$m")"
            printf '"muscles_mb_per_s":%s,' "$(mbps "${sel_mu_bytes[$f]}" "$m")"
        fi
        printf '"clickhouse_format":"%s","clickhouse_bytes":%d,"clickhouse_s":%s,' \
            "${sel_ch_format[$f]}" "${sel_ch_bytes[$f]}" "$c"
        printf '"clickhouse_rows_per_s":%s,"clickhouse_mb_per_s":%s,"ratio":%s}' \
            "$(rate "$ROWS" "$c")" "$(mbps "${sel_ch_bytes[$f]}" "$c")" \
            "$(json_num "$([[ -n $m ]] && ratio "$m" "$c")")"
    done
    printf ']}\n'
}

main() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/bench_formats_run.XXXXXX")
    chmod 755 "$work"
    ensure_packages
    build_muscles
    start_clickhouse
    start_muscles
    ch_version=$(chq "SELECT version()")
    [[ $ch_version == 18.16.* ]] ||
        echo "warning: the peer is ClickHouse $ch_version, not 18.16" >&2
    ch_max_threads=$(chq "SELECT value FROM system.settings WHERE name = 'max_threads'")
    ch_fsync_settings=$(chq "SELECT arrayStringConcat(groupArray(name), ', ')
        FROM system.merge_tree_settings WHERE name LIKE '%fsync%'")
    echo "--- muscles $MUSCLES on $HOST:$mu_port; ClickHouse $ch_version on $HOST:$http_port;" \
        "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) ---"
    declare -gA body_bytes ins_mu ins_ch ins_chs sel_mu sel_ch sel_mu_bytes sel_ch_bytes \
        sel_ch_format
    sync_errors=0
    make_bodies
    echo "generated $ROWS rows (ClickHouse, generate.sql); $batches bodies per format:" \
        "$(for f in "${INPUT_FORMATS[@]}"; do printf '%s %s B  ' "$f" "${body_bytes[$f]}"; done)"
    bench_inserts
    load_events
    bench_selects
    print_tables
    if ((sync_errors > 0)); then
        echo "note: $sync_errors CH+fsync rounds missed a part a merge had removed meanwhile"
    fi
    echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    print_json
}

main
