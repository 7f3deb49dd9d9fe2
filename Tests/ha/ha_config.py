#!/usr/bin/env python3
"""Writes a Home Assistant 2024.1 configuration folder for the live tests, before HA starts:
the MQTT integration as a config entry (the test's broker on loopback, discovery on), the
statestream republishing every entity's state and attributes under `hastate/`, the HTTP server
on loopback, onboarding done and a user that a loopback browser is logged in as without a
password (trusted_networks), so that a headless Chromium can show the device page.

Usage: ha_config.py DIR BROKER_PORT HTTP_PORT
"""
import json
import os
import sys
import uuid


def main():
    folder, broker_port, http_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    storage = os.path.join(folder, ".storage")
    os.makedirs(storage, exist_ok=True)
    with open(os.path.join(folder, "configuration.yaml"), "w") as f:
        f.write(f"""homeassistant:
  name: gpstrackd test
  latitude: 52.52
  longitude: 13.405
  elevation: 34
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: DE
  auth_providers:
    - type: trusted_networks
      trusted_networks:
        - 127.0.0.1/32
      allow_bypass_login: true
http:
  server_host: 127.0.0.1
  server_port: {http_port}
frontend:
config:
mqtt_statestream:
  base_topic: hastate
  publish_attributes: true
logger:
  default: warning
""")
    entry = {
        "entry_id": uuid.uuid4().hex, "version": 1, "minor_version": 1, "domain": "mqtt",
        "title": f"127.0.0.1:{broker_port}",
        "data": {"broker": "127.0.0.1", "port": broker_port, "discovery": True},
        "options": {}, "pref_disable_new_entities": False, "pref_disable_polling": False,
        "source": "user", "unique_id": None, "disabled_by": None,
    }
    write(storage, "core.config_entries", 1, {"entries": [entry]}, minor=1)
    write(storage, "onboarding", 4, {"done": ["user", "core_config", "analytics", "integration"]})
    # The owner, whom trusted_networks logs a loopback browser in as (the only user: no choice).
    owner = {"id": uuid.uuid4().hex, "group_ids": ["system-admin"], "is_owner": True, "is_active": True,
             "name": "gpstrackd test", "system_generated": False, "local_only": False}
    groups = [{"id": "system-admin", "name": "Administrators"}, {"id": "system-users", "name": "Users"},
              {"id": "system-read-only", "name": "Read Only"}]
    write(storage, "auth", 1, {"users": [owner], "groups": groups, "credentials": [], "refresh_tokens": []},
          minor=1)


def write(storage, key, version, data, minor=None):
    body = {"version": version, "key": key, "data": data}
    if minor is not None:
        body["minor_version"] = minor
    with open(os.path.join(storage, key), "w") as f:
        json.dump(body, f)


if __name__ == "__main__":
    main()
