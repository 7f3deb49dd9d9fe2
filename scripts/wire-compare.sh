#!/usr/bin/env bash
# The wire before and after a change: runs two gpstrackd binaries over the same inputs and
# compares, byte for byte, what `gpstrackd replay` prints (every event line and the summary):
# every gpsd JSON capture in ../shared/gpsd-captures/json and the sample day, each with no
# fences, with config/fences.geojson, and with automatic trips (trip_mode = auto, the parked
# guard on) and the fences. Prints one line per run that differs with its first differing
# lines, then `wire-compare: R runs, D differ`; exits 1 when any differs.
# Usage: scripts/wire-compare.sh OLD_GPSTRACKD NEW_GPSTRACKD
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
shared=${SHARED:-../shared/gpsd-captures}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf "trip_mode = auto\nguard = on\nspeed_limit_kmh = 50\n" > "$out/auto.conf"
logs=("$shared"/json/*.json samples/walk-and-drive.gpsd.json)
[ -e "${logs[0]}" ] || { echo "wire-compare: no captures in $shared/json" >&2; exit 2; }
runs=0 differ=0
for log in "${logs[@]}"; do
    for variant in plain fences auto; do
        case $variant in
            plain) args=() ;;
            fences) args=(--fences config/fences.geojson) ;;
            auto) args=(--config "$out/auto.conf" --fences config/fences.geojson) ;;
        esac
        runs=$((runs + 1))
        "$old" replay "${args[@]}" "$log" > "$out/old" 2>&1; rc_old=$?
        "$new" replay "${args[@]}" "$log" > "$out/new" 2>&1; rc_new=$?
        if [ $rc_old -ne $rc_new ] || ! cmp -s "$out/old" "$out/new"; then
            differ=$((differ + 1))
            echo "DIFFERS $(basename "$log") [$variant] (exit $rc_old -> $rc_new):"
            diff "$out/old" "$out/new" | head -6 | sed 's/^/    /'
        fi
    done
done
echo "wire-compare: $runs runs, $differ differ"
[ $differ -eq 0 ]
