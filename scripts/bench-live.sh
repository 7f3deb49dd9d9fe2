#!/usr/bin/env bash
# The live benchmark: gpstrackd (with 1,000 fences) and gpsd's own gpxlogger follow the same
# gpsfake feed side by side; GNU time reports each one's peak RSS and CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

"$BENCH" --write-fences 1000 "$work/fences.geojson"
printf 'no_data_timeout_s = 2\n' > "$work/bench.conf"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
gpsfake -q -1 -P "$port" -c 0.004 "$ROUTE" >/dev/null 2>&1 &
feed=$!
/usr/bin/time -f "%M %U %S" -o "$work/daemon.time" \
  "$BIN" --config "$work/bench.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr \
    --state-dir "$work/state" --socket "$work/gpstrackd.sock" 2>"$work/daemon.log" &
daemon=$!
/usr/bin/time -f "%M %U %S" -o "$work/gpxlogger.time" gpxlogger -i 5 -f "$work/track.gpx" "127.0.0.1:$port" >/dev/null 2>&1 &
logger=$!
# The feed is over when gpstrackd notices gpsd fall silent (2 s after the last report).
for _ in $(seq 1 600); do
  grep -q "no report from gpsd" "$work/daemon.log" 2>/dev/null && break
  sleep 0.2
done
pkill -TERM -P "$daemon" 2>/dev/null || true
pkill -TERM -P "$logger" 2>/dev/null || true
wait "$daemon" "$logger" 2>/dev/null || true
kill -9 "$feed" 2>/dev/null || true; pkill -9 -f "gpsd .*-S $port " || true
fixes=$(grep -c '^\$GPGGA' "$ROUTE")
read -r d_rss d_u d_s < <(tail -n 1 "$work/daemon.time")
read -r g_rss g_u g_s < <(tail -n 1 "$work/gpxlogger.time")
python3 - "$fixes" "$d_rss" "$d_u" "$d_s" "$g_rss" "$g_u" "$g_s" <<'PY'
import sys
fixes = int(sys.argv[1]); d = list(map(float, sys.argv[2:5])); g = list(map(float, sys.argv[5:8]))
print(f"live, side by side on one gpsfake feed of {fixes} epochs (gpstrackd with 1,000 fences):")
for name, (rss, u, s) in (("gpstrackd", d), ("gpxlogger", g)):
    print(f"  {name:10s} peak RSS {rss/1024:5.1f} MiB, CPU {u+s:5.2f} s ({(u+s)/fixes*1e6:6.1f} us per epoch)")
print(f"  gpstrackd / gpxlogger: RSS {d[0]/g[0]:.1f}x, CPU {(d[1]+d[2])/max(g[1]+g[2],0.01):.1f}x")
PY
