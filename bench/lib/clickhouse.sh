# shellcheck shell=bash disable=SC2154  # work: set by the sourcing run.sh
# bench/lib/clickhouse.sh: the peer of the benchmarks, sourced by their
# run.sh. Installs Debian's clickhouse-server 18.16 when missing, starts it
# on 127.0.0.1 (free ports, a temporary data folder under $work, as the
# clickhouse user when run as root) and stops it by its pid, never by name.
# The caller sets `work` (a temporary folder it removes) and calls
# stop_clickhouse from its exit trap. Globals set here: ch_pid, http_port,
# tcp_port, ch_dir (the server's folder; its tables are in
# $ch_dir/data/data/<database>/<table>).

HOST=127.0.0.1 # the only address the benchmarks use
ch_pid=""

die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

now() { date +%s.%N; }

# Installs the peer and curl with apt if one is missing (idempotent).
ensure_packages() {
    if command -v clickhouse-server >/dev/null && command -v clickhouse-client >/dev/null &&
        command -v curl >/dev/null; then
        return
    fi
    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo=sudo; fi
    local packages=(clickhouse-server clickhouse-client curl)
    $sudo apt-get install -y "${packages[@]}" ||
        { $sudo apt-get update && $sudo apt-get install -y "${packages[@]}"; }
}

# A port nothing on 127.0.0.1 answers on, other than the arguments; below
# Linux's ephemeral range (32768-60999), so that an outgoing connection
# cannot hold it when the server binds.
pick_port() {
    local p taken
    for _ in $(seq 1 200); do
        p=$((20000 + RANDOM % 12000))
        taken=0
        for x in "$@"; do [[ $p == "$x" ]] && taken=1; done
        if ((!taken)) && ! (exec 3<>"/dev/tcp/$HOST/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

write_clickhouse_config() {
    local dir=$1
    mkdir -p "$dir"/{data,tmp,user_files,format_schemas,logs}
    cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$dir/logs/server.log</log>
    <errorlog>$dir/logs/error.log</errorlog>
    <size>100M</size>
    <count>1</count>
  </logger>
  <listen_host>$HOST</listen_host>
  <http_port>$http_port</http_port>
  <tcp_port>$tcp_port</tcp_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>536870912</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
EOF
    cat >"$dir/users.xml" <<'EOF'
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
  </interval></default></quotas>
</yandex>
EOF
}

# Starts clickhouse-server in $work/clickhouse as the clickhouse user (as
# the caller when not root) and waits until it answers.
start_clickhouse() {
    ch_dir=$work/clickhouse
    http_port=$(pick_port) || die "no free port"
    tcp_port=$(pick_port "$http_port") || die "no free port"
    write_clickhouse_config "$ch_dir"
    if [[ $(id -u) -eq 0 ]]; then
        chown -R clickhouse:clickhouse "$ch_dir"
        setpriv --reuid=clickhouse --regid=clickhouse --init-groups \
            clickhouse-server --config-file="$ch_dir/config.xml" >"$work/clickhouse.out" 2>&1 &
    else
        clickhouse-server --config-file="$ch_dir/config.xml" >"$work/clickhouse.out" 2>&1 &
    fi
    ch_pid=$!
    for _ in $(seq 1 300); do
        if curl -sf "http://$HOST:$http_port/?query=SELECT%201" >/dev/null 2>&1; then return; fi
        if ! kill -0 "$ch_pid" 2>/dev/null; then
            cat "$work/clickhouse.out" "$ch_dir/logs/error.log" >&2 2>/dev/null || true
            die "clickhouse-server exited during startup"
        fi
        sleep 0.1
    done
    die "clickhouse-server did not answer on $HOST:$http_port within 30 s"
}

# Stops a server this script started, by its pid: SIGTERM, SIGKILL after 15 s.
stop_pid() {
    local pid=$1
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 150); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
}

stop_clickhouse() {
    stop_pid "$ch_pid"
    ch_pid=""
}

# One statement to ClickHouse; the answer on stdout.
chq() {
    curl -sS --fail-with-body "http://$HOST:$http_port/" --data-binary "$1" ||
        die "ClickHouse query failed: $1"
}
