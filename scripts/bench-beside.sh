#!/usr/bin/env bash
# What an outlet costs on the tracker's path: gpstrackd (default configuration, 1,000 fences)
# follows one gpsfake feed side by side with itself writing metrics_file every second (the
# shortest interval; the default is 15 s) and with itself sending to a Traccar server (a real
# HTTP server on loopback, Tests/http/uplink_server.py, answering 200); GNU time gives each one's
# whole-run CPU, printed per fix with the differences. Metrics are rendered from status once an
# interval and uplink messages are sent by their own thread, never per fix on the tracker's path
# (the issues' aim), so a difference is the renders' or the sends', spread over the fixes.
# Then the backlog's drain rate: a fourth process sends every fix to a server answering 503
# through the feed, then 200; the rate is what the server received once it took them.
# Prints only: nothing here fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
CTL=${CTL:-$(dirname "$BIN")/gpstrackctl}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
CYCLE=${CYCLE:-0.004}
NAMES="plain metered uplink drain"
work=$(mktemp -d)
feed=; servers=
declare -A pids=()
cleanup() {
    for pid in "${pids[@]}" $servers; do kill "$pid" 2>/dev/null || true; done
    [ -n "$feed" ] && kill -9 "$feed" 2>/dev/null || true
    [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() { # wait_for TRIES COMMAND...: polls every 0.2 s
    local n=$1; shift
    for _ in $(seq 1 "$n"); do "$@" && return 0; sleep 0.2; done  # polls, bounded
    return 1
}

"$BENCH" --write-fences 1000 "$work/fences.geojson"
# The route is dated 2026-03-14: an uplink sends no fix a day away from the clock unless told.
common='no_data_timeout_s = 2\nsocket_group = root\nadmin_group = root\n'
for server in uplink drain; do
    p=$(free_port)
    echo 200 > "$work/$server.mode"
    [ "$server" = drain ] && echo 503 > "$work/$server.mode"
    : > "$work/$server.requests"
    python3 Tests/http/uplink_server.py "$p" "$work/$server.requests" "$work/$server.mode" >/dev/null 2>&1 &
    servers="$servers $!"
    wait_for 50 listening "$p"
    eval "${server}_port=$p"
done
printf "$common" > "$work/plain.conf"
printf "${common}metrics_file = %s\nmetrics_interval_s = 1\n" "$work/gpstrackd.prom" > "$work/metered.conf"
traccar='traccar_url = http://127.0.0.1:%s/\ntraccar_device_id = bench\nuplink_max_clock_offset_s = 315360000\n'
printf "${common}${traccar}" "$uplink_port" > "$work/uplink.conf"
printf "${common}${traccar}traccar_min_interval_s = 0\ntraccar_min_distance_m = 0\n" "$drain_port" > "$work/drain.conf"
port=$(free_port)
gpsfake -q -1 -P "$port" -c "$CYCLE" "$ROUTE" >/dev/null 2>&1 &
feed=$!
wait_for 100 listening "$port"
for name in $NAMES; do
    /usr/bin/time -f "%M %U %S %e" -o "$work/$name.time" \
      "$BIN" --config "$work/$name.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr \
        --state-dir "$work/$name-state" --socket "$work/$name.sock" 2>"$work/$name.log" &
    pids[$name]=$!
done
wait_for 50 sh -c "pgrep -f 'gpsd .*-S $port ' > '$work/gpsd.pid'"
ended() { for name in $NAMES; do grep -q "no report from gpsd" "$work/$name.log" 2>/dev/null || return 1; done; }
wait_for 900 ended
# The feed is over: the drain's server takes its backlog now.
echo 200 > "$work/drain.mode"
queued() { "$CTL" --socket "$work/drain.sock" --json status | python3 -c 'import json, sys
print(json.load(sys.stdin).get("uplinks", {}).get("traccar", {}).get("queued", -1))'; }
drained() { [ "$(queued)" = 0 ]; }
wait_for 3000 drained || echo "  (the drain's backlog did not empty within 10 minutes: $(queued) left)"
for name in $NAMES; do pkill -TERM -P "${pids[$name]}" 2>/dev/null || true; done
wait "${pids[@]}" 2>/dev/null || true
pids=()
{ kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true; feed=
written=$(test -f "$work/gpstrackd.prom" && grep -c '^gpstrackd_' "$work/gpstrackd.prom" || echo 0)
python3 - "$work" "$written" $NAMES <<'PY'
import json, sys
work, written, names = sys.argv[1], sys.argv[2], sys.argv[3:]
def fixes(name):
    n = 0
    for line in open(f"{work}/{name}.log", errors="replace"):
        if "GPSTRACK_FIXES_TOTAL=" in line:
            n = int(line.split("GPSTRACK_FIXES_TOTAL=")[1].split()[0])
    return n
runs = {n: list(map(float, open(f"{work}/{n}.time").read().split("\n")[-2].split())) for n in names}
cpu = {n: runs[n][1] + runs[n][2] for n in names}
per = {n: cpu[n] / max(fixes(n), 1) * 1e6 for n in names}
def requests(server):
    return [json.loads(l) for l in open(f"{work}/{server}.requests") if l.strip()]
sent = [r for r in requests("uplink") if r["status"] == 200]
print(f"outlets on the tracker's path, side by side on one gpsfake feed (1,000 fences; {fixes('plain')} fixes):")
label = {"plain": "default configuration", "metered": "metrics_file every 1 s",
         "uplink": "a Traccar uplink", "drain": "Traccar, every fix, 503"}
for n in names:
    r = runs[n]
    print(f"  {label[n]:24s} CPU {cpu[n]:5.2f} s over {r[3]:.0f} s, {per[n]:6.1f} us a fix, peak RSS {r[0] / 1024:5.1f} MiB")
renders = runs["metered"][3]
extra = cpu["metered"] - cpu["plain"]
print(f"  metrics: {per['metered'] - per['plain']:+.1f} us a fix on this fast feed, all of it the {renders:.0f} renders of "
      f"{written} series: {extra / max(renders, 1) * 1e3:+.2f} ms CPU a render, none per fix "
      f"(at the default 15 s: {extra / max(renders, 1) * 4 * 1e3:+.1f} ms CPU a minute)")
up = cpu["uplink"] - cpu["plain"]
print(f"  Traccar uplink: {per['uplink'] - per['plain']:+.1f} us a fix, for {len(sent)} positions sent by the uplink's "
      f"own thread: {up / max(len(sent), 1) * 1e3:+.2f} ms CPU a request (CPU time is counted in 10 ms ticks)")
taken = [r for r in requests("drain") if r["status"] == 200]
if len(taken) >= 2:
    span = taken[-1]["time"] - taken[0]["time"]
    print(f"  backlog drain: {len(taken)} positions queued through a 503 outage, sent in {span:.1f} s once the server "
          f"took them: {(len(taken) - 1) / max(span, 1e-9):.1f} requests a second, one in flight, kept alive")
else:
    print(f"  backlog drain: only {len(taken)} positions taken; nothing to time")
PY
