#!/usr/bin/env bash
# Installs the Debian packages gpstrackd needs to build, test and benchmark, when missing.
# Usage: scripts/deps.sh [build|test|demo|bench|deb|text-order]    (as root, or through sudo)
set -euo pipefail

build=(pkg-config g++ libgps-dev libgeographiclib-dev libgeos-dev libsystemd-dev libsqlite3-dev libmosquitto-dev libsodium-dev libcurl4-openssl-dev)
test=(scdoc man-db groff-base lintian dpkg-dev debhelper fakeroot geographiclib-tools gpsd gpsd-clients systemd gpsbabel libxml2-utils mosquitto mosquitto-clients openssl nftables iproute2 procps prometheus prometheus-node-exporter python3-nacl acl gdal-bin chromium fonts-dejavu-core sqlite3 tzdata libjs-leaflet python3-venv)
demo=(gpsd gpsd-clients)                                # a real gpsd, fed by gpsfake
bench=(gpsd gpsd-clients time procps python3-venv gcc mosquitto)  # gpxlogger side by side, GNU time, the library floor, a broker
deb=(dpkg-dev debhelper fakeroot lintian scdoc)         # make deb: debhelper, then lintian
textorder=(valgrind gpsd gpsd-clients binutils linux-perf)  # make text-order: callgrind over a replay and a live run, perf for the stop
want=("${build[@]}")
[ "${1:-build}" = test ] && want+=("${test[@]}")
[ "${1:-build}" = demo ] && want+=("${demo[@]}")
[ "${1:-build}" = bench ] && want+=("${bench[@]}")
[ "${1:-build}" = deb ] && want+=("${deb[@]}")
[ "${1:-build}" = text-order ] && want+=("${textorder[@]}")

missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "gpstrackd: installing ${missing[*]}" >&2
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq || true
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
