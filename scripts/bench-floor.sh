#!/usr/bin/env bash
# What the Debian libraries cost before any work of ours: the peak RSS (GNU time) of an empty C
# program linked as gpstrackd is (its default configuration: SQLite and libsystemd shared;
# libgps, GeographicLib and libstdc++ are linked in from their archives; GEOS is loaded only for
# fences that need it, and bench's need none) and as it is with MQTT configured (libmosquitto
# loaded too, with its TLS libraries); then gpstrackd itself started with 1,000 fences and no gpsd, in both
# configurations. Prints only: nothing here fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
work=$(mktemp -d)
daemon=
cleanup() { [ -n "$daemon" ] && kill "$daemon" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Peak RSS in KiB of a command, best of three (the page cache is warm after the first).
peak() {
    local best=
    for _ in 1 2 3; do
        /usr/bin/time -f %M -o "$work/t" "$@" >/dev/null 2>&1 || true
        local kb; kb=$(tail -n 1 "$work/t")
        if [ -z "$best" ] || [ "$kb" -lt "$best" ]; then best=$kb; fi
    done
    echo "$best"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

echo 'int main(void) { return 0; }' > "$work/empty.c"
ours=$(pkg-config --libs sqlite3 libsystemd)
gcc "$work/empty.c" -o "$work/none"
gcc "$work/empty.c" -o "$work/default" -Wl,--no-as-needed $ours -lm
gcc "$work/empty.c" -o "$work/mqtt" -Wl,--no-as-needed $ours -lm $(pkg-config --libs libmosquitto)
libs() { ldd "$1" | grep -c '=>'; }

# gpstrackd with 1,000 fences, no gpsd (a port nobody listens on), peak RSS after 3 s; $1 is
# the configuration file.
"$BENCH" --write-fences 1000 "$work/fences.geojson"
idle() {
    rm -rf "$work/state"
    /usr/bin/time -f %M -o "$work/d" "$BIN" --config "$1" --gpsd 127.0.0.1:1 --fences "$work/fences.geojson" \
        --log stderr --state-dir "$work/state" --socket "$work/d.sock" 2>/dev/null &
    daemon=$!
    sleep 3  # the idle span whose peak RSS is measured (not a wait)
    # What the resident memory is, by mapping: once, for the default configuration.
    if [ "$1" = "$work/default.conf" ] && [ ! -e "$work/mapped" ]; then
        scripts/smaps-by-mapping.py "$(pgrep -P "$daemon")" > "$work/mapped" || true
    fi
    pkill -TERM -P "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
    daemon=
    tail -n 1 "$work/d"
}
# Groups /etc/group holds, as an installed box's gpstrack (see bench-live.sh).
printf 'socket_group = root\nadmin_group = root\n' > "$work/default.conf"
printf 'socket_group = root\nadmin_group = root\nmqtt_host = 127.0.0.1\nmqtt_port = 1\n' > "$work/mqtt.conf"
d1=$(idle "$work/default.conf"); m1=$(idle "$work/mqtt.conf")
d2=$(idle "$work/default.conf"); m2=$(idle "$work/mqtt.conf")

echo "library floor: peak RSS of an empty C program linked with (best of 3)"
echo "  nothing                                            $(mib "$(peak "$work/none")")"
echo "  gpstrackd's default libraries ($(libs "$work/default") loaded)          $(mib "$(peak "$work/default")")"
echo "  the same with libmosquitto, as with MQTT ($(libs "$work/mqtt") loaded)   $(mib "$(peak "$work/mqtt")")"
echo "gpstrackd with 1,000 fences, no gpsd, two runs interleaved:"
echo "  default configuration                              $(mib "$d1"), $(mib "$d2")"
echo "  with MQTT configured (no broker)                   $(mib "$m1"), $(mib "$m2")"
echo "gpstrackd idle with 1,000 fences, default configuration:"
cat "$work/mapped"
