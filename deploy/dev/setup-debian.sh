#!/usr/bin/env bash
# Installs every Debian 12 package muscles needs to build and to test.
# Idempotent: installs only what is missing, and runs `apt-get update` only
# when something is missing. Usage: deploy/dev/setup-debian.sh [build|test]
#   build  compiler, CMake and the -dev libraries (enough to build and run)
#   test   build + everything the test suite and CI use (the default)
set -euo pipefail

profile=${1:-test}

build_packages=(
  build-essential cmake pkg-config ca-certificates tzdata
  libuv1-dev libjansson-dev libzstd-dev liblz4-dev libssl-dev
  libcurl4-openssl-dev librdkafka-dev libavro-dev libyaml-dev libpcre2-dev zlib1g-dev
)
test_packages=(
  libcmocka-dev clang libclang-rt-14-dev
  python3 python3-pytest python3-requests curl procps
  clickhouse-server clickhouse-client nodejs
)

case "$profile" in
  build) wanted=("${build_packages[@]}") ;;
  test) wanted=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: $0 [build|test]" >&2; exit 2 ;;
esac

missing=()
for package in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
# Debian's nodejs comes without npm (NodeSource's has it built in).
if [ "$profile" = test ] && ! command -v npm >/dev/null; then missing+=(npm); fi
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "missing packages: ${missing[*]} (run as root)" >&2; exit 1; }
  sudo=sudo
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

