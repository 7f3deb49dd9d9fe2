#!/usr/bin/env bash
# The metrics' cost on the tracker's path: two gpstrackd (default configuration, 1,000 fences)
# follow the same gpsfake feed side by side, one without metrics_file and one writing it every
# second (the shortest interval; the default is 15 s); GNU time gives each one's whole-run CPU,
# printed per fix with the difference. The metrics are rendered from status once an interval,
# never per fix (the issue's aim: nothing per fix beyond the counters the tracker keeps), so the
# difference is the renders', spread over the fixes. Prints only: nothing here fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
CYCLE=${CYCLE:-0.004}
work=$(mktemp -d)
feed=; plain=; metered=
cleanup() {
    for pid in $plain $metered; do kill "$pid" 2>/dev/null || true; done
    [ -n "$feed" ] && kill -9 "$feed" 2>/dev/null || true
    [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$BENCH" --write-fences 1000 "$work/fences.geojson"
groups='socket_group = root\nadmin_group = root\n'
printf "no_data_timeout_s = 2\n$groups" > "$work/plain.conf"
printf "no_data_timeout_s = 2\n${groups}metrics_file = %s\nmetrics_interval_s = 1\n" "$work/gpstrackd.prom" > "$work/metered.conf"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
gpsfake -q -1 -P "$port" -c "$CYCLE" "$ROUTE" >/dev/null 2>&1 &
feed=$!
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
for name in plain metered; do
    /usr/bin/time -f "%M %U %S %e" -o "$work/$name.time" \
      "$BIN" --config "$work/$name.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr \
        --state-dir "$work/$name-state" --socket "$work/$name.sock" 2>"$work/$name.log" &
    eval "$name=\$!"
done
for _ in $(seq 1 50); do
    pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" 2>/dev/null && break
    sleep 0.1
done
for _ in $(seq 1 900); do
    grep -q "no report from gpsd" "$work/plain.log" 2>/dev/null && grep -q "no report from gpsd" "$work/metered.log" 2>/dev/null && break
    sleep 0.2
done
pkill -TERM -P "$plain" 2>/dev/null || true
pkill -TERM -P "$metered" 2>/dev/null || true
wait "$plain" "$metered" 2>/dev/null || true
plain=; metered=
{ kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true; feed=
written=$(test -f "$work/gpstrackd.prom" && grep -c '^gpstrackd_' "$work/gpstrackd.prom" || echo 0)
fixes() { sed -n 's/.*GPSTRACK_FIXES_TOTAL=\([0-9]*\).*/\1/p' "$1" | tail -n 1; }
python3 - "$(fixes "$work/plain.log")" "$(fixes "$work/metered.log")" "$(tail -n 1 "$work/plain.time")" \
    "$(tail -n 1 "$work/metered.time")" "$written" <<'PY'
import sys
n = [int(sys.argv[1] or 0), int(sys.argv[2] or 0)]
runs = [list(map(float, sys.argv[3].split())), list(map(float, sys.argv[4].split()))]
per = [(r[1] + r[2]) / max(k, 1) * 1e6 for r, k in zip(runs, n)]
print(f"metrics on the tracker's path, side by side on one gpsfake feed (1,000 fences; {n[0]} and {n[1]} fixes counted):")
for name, r, p in (("without metrics_file", runs[0], per[0]), ("metrics_file every 1 s", runs[1], per[1])):
    print(f"  {name:22s} CPU {r[1] + r[2]:5.2f} s over {r[3]:.0f} s, {p:6.1f} us a fix, peak RSS {r[0] / 1024:5.1f} MiB")
renders = runs[1][3] / 1
extra = (runs[1][1] + runs[1][2]) - (runs[0][1] + runs[0][2])
print(f"  difference: {per[1] - per[0]:+.1f} us a fix on this fast feed ({(per[1] / max(per[0], 1e-9) - 1) * 100:+.1f} %), "
      f"all of it the {renders:.0f} renders of {sys.argv[5]} series: {extra / max(renders, 1) * 1e3:+.2f} ms CPU a render, "
      f"none per fix (at the default 15 s: {extra / max(renders, 1) * 4 * 1e3:+.1f} ms CPU a minute; "
      f"CPU time is counted in 10 ms ticks)")
PY
