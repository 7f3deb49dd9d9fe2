#!/bin/sh
# Renders a page of `gpstrackctl export --format html` in headless Chromium with the network
# off (a network namespace of its own, loopback down: any request the page made would fail and
# be logged). OUT.png is the screenshot; with OUT "-" the DOM after the page's script ran goes
# to standard output instead. Chromium's log (console messages included) goes to standard error.
# usage: scripts/page-screenshot.sh PAGE.html OUT.png|- [WIDTH,HEIGHT]   (root: unshare -n)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 PAGE.html OUT.png|- [WIDTH,HEIGHT]" >&2; exit 64; }
page=$(realpath "$1")
out=$2
size=${3:-1000,1500}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
set -- unshare -n chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --window-size="$size"
if [ "$out" = "-" ]; then
    "$@" --dump-dom "file://$page"
else
    "$@" --screenshot="$(realpath -m "$out")" "file://$page"
fi
