#!/usr/bin/env bash
# The live footprint benchmark: gpstrackd (with 1,000 fences) in its default configuration, the
# same with MQTT configured (a real mosquitto on loopback), and gpsd's own gpxlogger follow the
# same gpsfake feed side by side, all three connected to one gpsd at once; GNU time reports each
# one's peak RSS and whole-run CPU (user + system), printed with the ratios, the aims (the
# footprint issue: default at most 5x gpxlogger's RSS, stretch 4x, CPU at most 1.5x; with MQTT
# at most 6x) and the time to load the same 1,000 fences. Prints only: nothing here fails on a
# figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
# Seconds between two sentences: 4 ms plays the route's 7,000 sentences in about 30 s.
CYCLE=${CYCLE:-0.004}
work=$(mktemp -d)
feed=; daemon=; mqttd=; logger=; broker=
cleanup() {
    for pid in $daemon $mqttd $logger $broker; do kill "$pid" 2>/dev/null || true; done
    # gpsfake ignores SIGTERM while it feeds; gpsd is stopped by its own pid below.
    [ -n "$feed" ] && kill -9 "$feed" 2>/dev/null || true
    [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

"$BENCH" --write-fences 1000 "$work/fences.geojson"
# The socket's groups are ones /etc/group holds, as the package's sysusers entry makes gpstrack:
# a group NSS's files module cannot find sends the look-up on to libnss_systemd (and libdbus),
# which an installed box does not load.
groups='socket_group = root\nadmin_group = root\n'
printf "no_data_timeout_s = 2\n$groups" > "$work/bench.conf"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mport" > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >/dev/null 2>&1 &
broker=$!
printf "no_data_timeout_s = 2\n${groups}mqtt_host = 127.0.0.1\nmqtt_port = %s\n" "$mport" > "$work/mqtt.conf"
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$mport") 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
gpsfake -q -1 -P "$port" -c "$CYCLE" "$ROUTE" >/dev/null 2>&1 &
feed=$!
# Both clients connect once gpsd listens (gpxlogger gives up at once when it cannot connect).
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
# gpxlogger's default export is D-Bus where libgps was built with it: ask for gpsd's socket.
/usr/bin/time -f "%M %U %S" -o "$work/gpxlogger.time" \
  gpxlogger -e sockets -i 5 -f "$work/track.gpx" "127.0.0.1:$port" >/dev/null 2>&1 &
logger=$!
/usr/bin/time -f "%M %U %S" -o "$work/daemon.time" \
  "$BIN" --config "$work/bench.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr \
    --state-dir "$work/state" --socket "$work/gpstrackd.sock" 2>"$work/daemon.log" &
daemon=$!
/usr/bin/time -f "%M %U %S" -o "$work/mqttd.time" \
  "$BIN" --config "$work/mqtt.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr \
    --state-dir "$work/mqtt-state" --socket "$work/mqttd.sock" 2>"$work/mqttd.log" &
mqttd=$!
# gpsd's pid, to stop it afterwards (gpsfake leaves it running when killed).
for _ in $(seq 1 50); do
    pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
# The feed is over when gpstrackd notices gpsd fall silent (2 s after the last report).
for _ in $(seq 1 900); do
    grep -q "no report from gpsd" "$work/daemon.log" 2>/dev/null && grep -q "no report from gpsd" "$work/mqttd.log" 2>/dev/null && break
    sleep 0.2  # polls, bounded
done
# SIGTERM to each program (the children of the two `time` processes).
pkill -TERM -P "$daemon" 2>/dev/null || true
pkill -TERM -P "$mqttd" 2>/dev/null || true
pkill -TERM -P "$logger" 2>/dev/null || true
wait "$daemon" "$mqttd" "$logger" 2>/dev/null || true
daemon=; mqttd=; logger=
kill "$broker" 2>/dev/null || true; wait "$broker" 2>/dev/null || true; broker=
{ kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true; feed=
"$BENCH" --time-fence-load "$work/fences.geojson" > "$work/load.txt"
fixes=$(grep -c '^\$GPGGA' "$ROUTE")
points=$(grep -c '<trkpt' "$work/track.gpx" || true)
accepted=$(sed -n 's/.*GPSTRACK_FIXES_TOTAL=\([0-9]*\).*/\1/p' "$work/daemon.log" | tail -n 1)
published=$(grep -c "MQTT connected" "$work/mqttd.log" || true)
read -r d_rss d_u d_s < <(tail -n 1 "$work/daemon.time")
read -r m_rss m_u m_s < <(tail -n 1 "$work/mqttd.time")
read -r g_rss g_u g_s < <(tail -n 1 "$work/gpxlogger.time")
python3 - "$fixes" "$points" "${accepted:-?}" "$d_rss" "$d_u" "$d_s" "$m_rss" "$m_u" "$m_s" "$g_rss" "$g_u" "$g_s" \
    "$(cat "$work/load.txt")" "${published:-0}" <<'PY'
import sys
fixes, points, taken = sys.argv[1], sys.argv[2], sys.argv[3]
d = list(map(float, sys.argv[4:7])); m = list(map(float, sys.argv[7:10])); g = list(map(float, sys.argv[10:13]))
load, connected = sys.argv[13], sys.argv[14]
print(f"live footprint, side by side on one gpsfake feed of {fixes} epochs (gpstrackd with 1,000 fences;"
      f" it counted {taken} fixes, gpxlogger wrote {points} track points; the MQTT one connected to its broker"
      f" {connected} time(s)):")
for name, (rss, u, s) in (("gpstrackd", d), ("  + MQTT", m), ("gpxlogger", g)):
    print(f"  {name:10s} peak RSS {rss/1024:5.1f} MiB, CPU {u+s:5.2f} s (user {u:.2f}, system {s:.2f})")
def verdict(ok): return "met" if ok else "NOT met"
cpu = lambda x: (x[1] + x[2]) / max(g[1] + g[2], 0.01)
r = d[0] / g[0]
print(f"  default / gpxlogger: peak RSS {r:.1f}x (aim: at most 5x, {verdict(r <= 5)}; stretch 4x, {verdict(r <= 4)}), "
      f"CPU {cpu(d):.1f}x (aim: at most 1.5x, {verdict(cpu(d) <= 1.5)})")
r = m[0] / g[0]
print(f"  with MQTT / gpxlogger: peak RSS {r:.1f}x (aim: at most 6x, {verdict(r <= 6)}), CPU {cpu(m):.1f}x")
print(f"  loading the same 1,000 fences: {load}")
PY
