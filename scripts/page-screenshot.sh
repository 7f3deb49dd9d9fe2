#!/bin/sh
# Renders a page of `gpstrackctl export --format html` in headless Chromium with the network
# off (a network namespace of its own, loopback down: any request the page made would fail and
# be logged). OUT.png is the screenshot; with OUT "-" the DOM after the page's script ran goes
# to standard output instead. Chromium's log (console messages included) goes to standard error.
# usage: scripts/page-screenshot.sh PAGE.html OUT.png|- [WIDTH,HEIGHT]   (root: unshare -n)
# For the tiles' test (MapTilesTests): PAGE_TILE_PORT=N brings the namespace's loopback up (still
# nothing beyond it) and, with PAGE_TILE_LOG=FILE, serves PNG tiles there
# (Tests/http/tile_server.py, each request's path in FILE; PAGE_TILE_STYLE=pale for the docs'
# screenshot); PAGE_NETLOG=FILE keeps Chromium's net log, every request the page made.
set -eu
if [ "${1:-}" = --in-namespace ]; then
    shift
    srv=''
    if [ -n "${PAGE_TILE_PORT:-}" ]; then
        ip link set lo up
        if [ -n "${PAGE_TILE_LOG:-}" ]; then
            python3 "$(dirname "$0")/../Tests/http/tile_server.py" "$PAGE_TILE_PORT" "$PAGE_TILE_LOG" \
                "${PAGE_TILE_STYLE:-magenta}" &
            srv=$!
            # Until it accepts a connection, for at most 10 s.
            python3 -c 'import socket, sys, time
end = time.monotonic() + 10
while True:
    try: socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close(); break
    except OSError:
        if time.monotonic() > end: sys.exit("the tile server did not come up")
        time.sleep(0.05)' "$PAGE_TILE_PORT"
        fi
    fi
    rc=0
    "$@" || rc=$?
    [ -z "$srv" ] || { kill "$srv"; wait "$srv" 2>/dev/null || true; }
    exit $rc
fi
[ $# -ge 2 ] || { echo "usage: $0 PAGE.html OUT.png|- [WIDTH,HEIGHT]" >&2; exit 64; }
page=$(realpath "$1")
out=$2
size=${3:-1000,1500}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# No request of the browser's own (its network time, components, sync): the net log is then
# the page's requests alone. The virtual time budget lets the page's asynchronous work (tiles
# loading) finish before the screenshot or the DOM is taken.
set -- unshare -n "$0" --in-namespace chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --window-size="$size" \
    --disable-background-networking --disable-component-update --disable-sync --no-default-browser-check \
    --disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,Translate \
    --virtual-time-budget=10000 ${PAGE_NETLOG:+--log-net-log="$PAGE_NETLOG"}
if [ "$out" = "-" ]; then
    "$@" --dump-dom "file://$page"
else
    "$@" --screenshot="$(realpath -m "$out")" "file://$page"
fi
