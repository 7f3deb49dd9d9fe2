#!/usr/bin/env bash
# The live footprint benchmark: gpstrackd (with 1,000 fences) and gpsd's own gpxlogger follow the
# same gpsfake feed side by side, both connected to one gpsd at once; GNU time reports each
# one's peak RSS and whole-run CPU (user + system), printed with the ratios, the aims (issue 13:
# at most 6x gpxlogger's RSS, at most 2x its CPU) and the time to load the same 1,000 fences.
# Prints only: nothing here fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
# Seconds between two sentences: 4 ms plays the route's 7,000 sentences in about 30 s.
CYCLE=${CYCLE:-0.004}
work=$(mktemp -d)
feed=; daemon=; logger=
cleanup() {
    for pid in $daemon $logger; do kill "$pid" 2>/dev/null || true; done
    # gpsfake ignores SIGTERM while it feeds; gpsd is stopped by its own pid below.
    [ -n "$feed" ] && kill -9 "$feed" 2>/dev/null || true
    [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

"$BENCH" --write-fences 1000 "$work/fences.geojson"
printf 'no_data_timeout_s = 2\n' > "$work/bench.conf"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
gpsfake -q -1 -P "$port" -c "$CYCLE" "$ROUTE" >/dev/null 2>&1 &
feed=$!
# Both clients connect once gpsd listens (gpxlogger gives up at once when it cannot connect).
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done
# gpxlogger's default export is D-Bus where libgps was built with it: ask for gpsd's socket.
/usr/bin/time -f "%M %U %S" -o "$work/gpxlogger.time" \
  gpxlogger -e sockets -i 5 -f "$work/track.gpx" "127.0.0.1:$port" >/dev/null 2>&1 &
logger=$!
/usr/bin/time -f "%M %U %S" -o "$work/daemon.time" \
  "$BIN" --config "$work/bench.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr \
    --state-dir "$work/state" --socket "$work/gpstrackd.sock" 2>"$work/daemon.log" &
daemon=$!
# gpsd's pid, to stop it afterwards (gpsfake leaves it running when killed).
for _ in $(seq 1 50); do
    pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" 2>/dev/null && break
    sleep 0.1
done
# The feed is over when gpstrackd notices gpsd fall silent (2 s after the last report).
for _ in $(seq 1 900); do
    grep -q "no report from gpsd" "$work/daemon.log" 2>/dev/null && break
    sleep 0.2
done
# SIGTERM to each program (the children of the two `time` processes).
pkill -TERM -P "$daemon" 2>/dev/null || true
pkill -TERM -P "$logger" 2>/dev/null || true
wait "$daemon" "$logger" 2>/dev/null || true
daemon=; logger=
{ kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true; feed=
"$BENCH" --time-fence-load "$work/fences.geojson" > "$work/load.txt"
fixes=$(grep -c '^\$GPGGA' "$ROUTE")
points=$(grep -c '<trkpt' "$work/track.gpx" || true)
accepted=$(sed -n 's/.*GPSTRACK_FIXES_TOTAL=\([0-9]*\).*/\1/p' "$work/daemon.log" | tail -n 1)
read -r d_rss d_u d_s < <(tail -n 1 "$work/daemon.time")
read -r g_rss g_u g_s < <(tail -n 1 "$work/gpxlogger.time")
python3 - "$fixes" "$points" "${accepted:-?}" "$d_rss" "$d_u" "$d_s" "$g_rss" "$g_u" "$g_s" "$(cat "$work/load.txt")" <<'PY'
import sys
fixes, points, taken = sys.argv[1], sys.argv[2], sys.argv[3]
d = list(map(float, sys.argv[4:7])); g = list(map(float, sys.argv[7:10])); load = sys.argv[10]
print(f"live footprint, side by side on one gpsfake feed of {fixes} epochs (gpstrackd with 1,000 fences;"
      f" it counted {taken} fixes, gpxlogger wrote {points} track points):")
for name, (rss, u, s) in (("gpstrackd", d), ("gpxlogger", g)):
    print(f"  {name:10s} peak RSS {rss/1024:5.1f} MiB, CPU {u+s:5.2f} s (user {u:.2f}, system {s:.2f})")
rss_ratio = d[0] / g[0]
cpu_ratio = (d[1] + d[2]) / max(g[1] + g[2], 0.01)
def verdict(ok): return "met" if ok else "NOT met"
print(f"  gpstrackd / gpxlogger: peak RSS {rss_ratio:.1f}x (aim: at most 6x, {verdict(rss_ratio <= 6)}), "
      f"CPU {cpu_ratio:.1f}x (aim: at most 2x, {verdict(cpu_ratio <= 2)})")
print(f"  loading the same 1,000 fences: {load}")
PY
