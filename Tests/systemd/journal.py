#!/usr/bin/python3
"""Reads `journalctl -o json` lines on stdin; prints the named fields of each entry, tab-separated
("-" where an entry lacks one). The system test's only JSON reader: bash does the rest.
`--skip-cursor C` first leaves out the entry at cursor C: the test reads with `--cursor=C`, since
journalctl's `--after-cursor` with matches drops the first matching entry when the entry at the
cursor does not match."""
import json
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (head) is no error

fields = sys.argv[1:]
skip = None
if fields[:1] == ["--skip-cursor"]:
    skip, fields = fields[1], fields[2:]
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    entry = json.loads(line)
    if skip is not None and entry.get("__CURSOR") == skip:
        continue
    values = []
    for name in fields:
        value = entry.get(name, "-")
        if isinstance(value, list):  # a field logged twice, or binary: not expected here
            value = repr(value)
        values.append(str(value).replace("\t", " ").replace("\n", " "))
    print("\t".join(values))
