#!/usr/bin/env bash
# The demo: a real gpsd, fed by gpsfake with the bundled NMEA route, and gpstrackd following it
# with the sample fences, logging to the terminal. Ends on its own with the trip's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/debug/gpstrackd}
ROUTE=${ROUTE:-samples/walk-and-drive.nmea}
FENCES=${FENCES:-config/fences.geojson}
CYCLE=${CYCLE:-0.004}   # seconds between sentences: the 25-minute route plays in about a minute

state=$(mktemp -d)   # a fresh state directory: the demo starts a new trip every time
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "demo: gpsfake (a real gpsd) on port $port playing $ROUTE; gpstrackd follows it with $FENCES"
TMPDIR=$state gpsfake -q -1 -P "$port" -c "$CYCLE" "$ROUTE" >/dev/null 2>&1 &   # its socket goes with $state
feed=$!
# gpstrackd starts once gpsd listens: started before, its first connect is refused and logged
# as a lost gpsd (a warning the demo should not show; under systemd gpsd.socket listens first).
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
# The route is a recording dated 2026-03-14: its fixes are months behind this machine's clock by
# design, which the clock check would report (gpstrackd(8), THE SYSTEM CLOCK).
printf 'clock_offset_warn_s = 315360000\n' > "$state/demo.conf"
"$BIN" --config "$state/demo.conf" --gpsd "127.0.0.1:$port" --fences "$FENCES" --log stderr \
  --state-dir "$state" --socket "$state/gpstrackd.sock" 2> >(tee "$state/daemon.log" >&2) &
daemon=$!
trap 'kill -9 $feed 2>/dev/null || true; kill $daemon 2>/dev/null || true; rm -rf "$state"' EXIT
# gpsfake removes its receiver at the end of the route: the daemon has taken in every fix once
# it says so. It is stopped then, before gpsfake winds down (which takes it more than the 10 s
# after which the daemon would report gpsd silent: the demo used to end on that warning).
while kill -0 "$feed" 2>/dev/null; do
    grep -q "receiver .* removed" "$state/daemon.log" && break
    sleep 0.1  # polls, bounded by gpsfake's life
done
kill -TERM "$daemon"
wait "$daemon"
