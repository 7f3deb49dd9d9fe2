#!/usr/bin/env python3
"""Resident memory of a running process by mapping (`make bench`, docs/PERFORMANCE.md): sums
/proc/PID/smaps's Rss (and its anonymous and file parts) over each mapped file, the heap, the
thread stacks and the other anonymous memory, largest first, with smaps_rollup's total."""
import collections
import os
import sys

pid = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 14
rss = collections.Counter()
name = None
with open(f"/proc/{pid}/smaps") as f:
    for line in f:
        head = line.split()
        if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            path = head[5] if len(head) > 5 else ""
            if path.startswith("/"):
                name = os.path.basename(path)
            elif path:
                name = path  # [heap], [stack], [vdso]...
            else:
                # glibc's thread stacks and malloc's arenas are anonymous; the Swift runtime's too
                name = "anonymous (thread stacks, arenas, runtime)"
        elif head[0] == "Rss:":
            rss[name] += int(head[1])
total = sum(rss.values())
with open(f"/proc/{pid}/status") as f:
    status = {l.split(":")[0]: l.split(":", 1)[1].strip() for l in f}
print(f"  resident by mapping (/proc/{pid}/smaps; RSS {total / 1024:.1f} MiB, peak {status.get('VmHWM', '?')}, "
      f"{status.get('Threads', '?')} threads):")
shown = rss.most_common(limit)
for n, kb in shown:
    print(f"    {kb / 1024:5.2f} MiB  {n}")
rest = total - sum(kb for _, kb in shown)
if rest:
    print(f"    {rest / 1024:5.2f} MiB  {len(rss) - len(shown)} more")
