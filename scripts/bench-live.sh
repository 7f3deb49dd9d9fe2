#!/usr/bin/env bash
# The live footprint benchmark: gpstrackd (with 1,000 fences) in its default configuration, the
# same with MQTT configured (a real mosquitto on loopback), and gpsd's own gpxlogger follow the
# same gpsfake feed side by side, all three connected to one gpsd at once; GNU time reports each
# one's peak RSS and whole-run CPU (user + system), printed with the ratios, the aims (issue 45:
# default at most 4x gpxlogger's RSS and 1.5x its CPU; with MQTT at most 6x) and the time to
# load the same 1,000 fences. ROUNDS rounds (at least 5), each a feed of its own: every figure
# is min / median / max over them, each ratio taken within its round. BASELINE may name another
# gpstrackd (an earlier build) to follow the same feed in the default configuration. Prints
# only: nothing here fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
ROUNDS=${ROUNDS:-5}
[ "$ROUNDS" -ge 5 ] || ROUNDS=5
BASELINE=${BASELINE:-}
# Seconds between two sentences: 4 ms plays the route's 7,000 sentences in about 30 s.
CYCLE=${CYCLE:-0.004}
work=$(mktemp -d)
feed=; daemon=; mqttd=; based=; logger=; broker=
cleanup() {
    for pid in $daemon $mqttd $based $logger $broker; do kill "$pid" 2>/dev/null || true; done
    # gpsfake ignores SIGTERM while it feeds; gpsd is stopped by its own pid below.
    [ -n "$feed" ] && { kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true
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
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mport=$(freeport)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$mport" > "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >/dev/null 2>&1 &
broker=$!
printf "no_data_timeout_s = 2\n${groups}mqtt_host = 127.0.0.1\nmqtt_port = %s\n" "$mport" > "$work/mqtt.conf"
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$mport") 2>/dev/null && break
    sleep 0.1  # polls, bounded
done

# A gpstrackd following gpsd at $2 under GNU time: $1 names the run, $3 the binary, $4 the
# configuration; its pid is left in $started.
follow() {
    /usr/bin/time -f "%M %U %S" -o "$work/$1.time" \
      "$3" --config "$4" --gpsd "127.0.0.1:$2" --fences "$work/fences.geojson" --log stderr \
        --state-dir "$work/$1-state" --socket "$work/$1.sock" >/dev/null 2>"$work/$1.log" &
    started=$!
}

# One round: a feed of its own, the programs connected at once; appends a line of figures.
round() {
    local port; port=$(freeport)
    rm -rf "$work"/*-state "$work"/*.log "$work"/*.time "$work/track.gpx"
    gpsfake -q -1 -P "$port" -c "$CYCLE" "$ROUTE" >/dev/null 2>&1 &
    feed=$!
    # The clients connect once gpsd listens (gpxlogger gives up at once when it cannot connect).
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1  # polls, bounded
    done
    # gpxlogger's default export is D-Bus where libgps was built with it: ask for gpsd's socket.
    /usr/bin/time -f "%M %U %S" -o "$work/gpxlogger.time" \
      gpxlogger -e sockets -i 5 -f "$work/track.gpx" "127.0.0.1:$port" >/dev/null 2>&1 &
    logger=$!
    follow daemon "$port" "$BIN" "$work/bench.conf"; daemon=$started
    follow mqttd "$port" "$BIN" "$work/mqtt.conf"; mqttd=$started
    if [ -n "$BASELINE" ]; then follow based "$port" "$BASELINE" "$work/bench.conf"; based=$started; fi
    # gpsd's pid, to stop it afterwards (gpsfake leaves it running when killed).
    for _ in $(seq 1 50); do
        pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" 2>/dev/null && break
        sleep 0.1  # polls, bounded
    done
    # The feed is over when each gpstrackd notices gpsd fall silent (2 s after the last report).
    local names="daemon mqttd"; [ -n "$BASELINE" ] && names="$names based"
    for _ in $(seq 1 900); do
        local all=1
        for n in $names; do grep -q "no report from gpsd" "$work/$n.log" 2>/dev/null || all=; done
        [ -n "$all" ] && break
        sleep 0.2  # polls, bounded
    done
    # SIGTERM to each program (the children of the `time` processes).
    for pid in $daemon $mqttd $based $logger; do pkill -TERM -P "$pid" 2>/dev/null || true; done
    wait $daemon $mqttd $based $logger 2>/dev/null || true
    daemon=; mqttd=; based=; logger=
    { kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true; feed=
    kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    local accepted points connected b=""
    accepted=$(sed -n 's/.*GPSTRACK_FIXES_TOTAL=\([0-9]*\).*/\1/p' "$work/daemon.log" | tail -n 1)
    points=$(grep -c '<trkpt' "$work/track.gpx" || true)
    connected=$(grep -c "MQTT connected" "$work/mqttd.log" || true)
    [ -n "$BASELINE" ] && b=$(tail -n 1 "$work/based.time")
    echo "${accepted:-0} $points $connected $(tail -n 1 "$work/daemon.time") $(tail -n 1 "$work/mqttd.time")" \
        "$(tail -n 1 "$work/gpxlogger.time") $b" >> "$work/rounds"
}
for _ in $(seq 1 "$ROUNDS"); do round; done
kill "$broker" 2>/dev/null || true; wait "$broker" 2>/dev/null || true; broker=
"$BENCH" --time-fence-load "$work/fences.geojson" > "$work/load.txt"
fixes=$(grep -c '^\$GPGGA' "$ROUTE")
python3 - "$fixes" "$work/rounds" "$(cat "$work/load.txt")" "$BASELINE" <<'PY'
import statistics, sys
fixes, rounds, load, baseline = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
rows = [list(map(float, l.split())) for l in open(rounds) if l.strip()]
def spread(xs, f="{:.2f}"):
    return f"{f.format(min(xs))} / {f.format(statistics.median(xs))} / {f.format(max(xs))}"
def prog(r, i): return r[i] / 1024, r[i + 1] + r[i + 2]  # MiB, CPU s
d = [prog(r, 3) for r in rows]; m = [prog(r, 6) for r in rows]; g = [prog(r, 9) for r in rows]
b = [prog(r, 12) for r in rows] if baseline else []
print(f"live footprint, side by side on one gpsfake feed of {fixes} epochs, {len(rows)} rounds (min / median / max;"
      f" gpstrackd with 1,000 fences counted {spread([r[0] for r in rows], '{:.0f}')} fixes, gpxlogger wrote"
      f" {spread([r[1] for r in rows], '{:.0f}')} track points, the MQTT one connected"
      f" {spread([r[2] for r in rows], '{:.0f}')} time(s)):")
for name, xs in (("gpstrackd", d), ("  + MQTT", m), ("gpxlogger", g)) + ((("baseline", b),) if b else ()):
    print(f"  {name:10s} peak RSS {spread([x[0] for x in xs], '{:.1f}')} MiB, CPU {spread([x[1] for x in xs])} s")
def ratios(xs, k, floor=0.01): return [x[k] / max(y[k], floor) for x, y in zip(xs, g)]
def verdict(ok): return "met" if ok else "NOT met"
r, c = ratios(d, 0), ratios(d, 1)
print(f"  default / gpxlogger: peak RSS {spread(r, '{:.1f}')}x (aim: median at most 4x, {verdict(statistics.median(r) <= 4)}), "
      f"CPU {spread(c, '{:.2f}')}x (aim: median at most 1.5x, {verdict(statistics.median(c) <= 1.5)})")
r, c = ratios(m, 0), ratios(m, 1)
print(f"  with MQTT / gpxlogger: peak RSS {spread(r, '{:.1f}')}x (aim: median at most 6x, {verdict(statistics.median(r) <= 6)}), "
      f"CPU {spread(c, '{:.2f}')}x")
if b:
    r, c = ratios(b, 0), ratios(b, 1)
    print(f"  baseline ({baseline}) / gpxlogger: peak RSS {spread(r, '{:.1f}')}x, CPU {spread(c, '{:.2f}')}x")
print(f"  loading the same 1,000 fences: {load}")
PY
