#!/usr/bin/env bash
# Installs Home Assistant 2024.1.6 (the newest line that runs on Debian 12's Python 3.11, with
# the MQTT integration, the statestream and the frontend) into a virtual environment kept in a
# cache folder, once, and links it as .build/ha-venv for HomeAssistantLiveTests. `make test`
# starts it in the background, beside the build and the other tests: while it runs,
# .build/ha-venv.pending exists and the test waits; if it fails, .build/ha-venv.failed holds why.
# Usage: scripts/ha-venv.sh   (GPSTRACK_HA_CACHE: the cache folder)
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
rm -f .build/ha-venv.failed
touch .build/ha-venv.pending
trap 'rc=$?; [ $rc -eq 0 ] || echo "scripts/ha-venv.sh failed (exit $rc); its output: .build/ha-venv.log" > .build/ha-venv.failed; rm -f .build/ha-venv.pending' EXIT
version=2024.1.6
if [ -z "${GPSTRACK_HA_CACHE:-}" ]; then
    if [ -w /var/cache ]; then GPSTRACK_HA_CACHE=/var/cache/gpstrackd-test; else GPSTRACK_HA_CACHE=$HOME/.cache/gpstrackd-test; fi
fi
venv=$GPSTRACK_HA_CACHE/ha-$version
# What HA 2024.1.6 asks for besides its own package, pinned as its manifests pin them: the
# MQTT client, the frontend and what its dependencies import (HTTP, recorder, person's images,
# camera and stream, calendar's rules), so that it starts with --skip-pip and no network.
pins=(homeassistant==$version paho-mqtt==1.6.1 janus==1.0.0 home-assistant-frontend==20240104.0
    aiohttp_cors==0.7.0 aiohttp-fast-url-dispatcher==0.3.0 aiohttp-zlib-ng==0.1.3 SQLAlchemy==2.0.23
    fnv-hash-fast==0.5.0 psutil-home-assistant==0.0.1 Pillow==10.1.0 PyTurboJPEG==1.7.1 numpy==1.26.0
    python-dateutil==2.8.2)
stamp=$venv/.gpstrackd-installed
want="${pins[*]}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "gpstrackd: installing Home Assistant $version into $venv (once)" >&2
    mkdir -p "$GPSTRACK_HA_CACHE"
    [ -x "$venv/bin/python3" ] || /usr/bin/python3 -m venv "$venv"
    "$venv/bin/python3" -m pip install -q --disable-pip-version-check "${pins[@]}"
    echo "$want" > "$stamp"
fi
ln -sfn "$venv" .build/ha-venv
