#!/usr/bin/env python3
"""Prints "obj/s p50-ms p99-ms errors" of one warp run: the obj/s warp reports (its average over
the time every client was busy), and the latency percentiles of the requests it recorded
(its --benchdata file, zstd-compressed tab-separated rows with duration_ns and error columns).

usage: warp_summary.py WARP-STDOUT BENCHDATA.csv.zst
"""
import re
import subprocess
import sys

out, data = sys.argv[1], sys.argv[2]
text = open(out, encoding="utf-8", errors="replace").read()
m = re.search(r"\* Average: .*?([0-9.]+) obj/s", text)
if not m:
    sys.exit("warp_summary: no average in " + out)
ops = float(m.group(1))

rows = subprocess.run(["zstd", "-dc", data], check=True, capture_output=True, text=True).stdout.splitlines()
header = rows[0].split("\t")
dur, err = header.index("duration_ns"), header.index("error")
durations, errors = [], 0
for row in rows[1:]:
    f = row.split("\t")
    if len(f) <= dur:
        continue
    if f[err]:
        errors += 1
        continue
    durations.append(int(f[dur]))
if not durations:
    sys.exit("warp_summary: no successful request in " + data)
durations.sort()


def pct(p):
    return durations[min(len(durations) - 1, int(p * len(durations)))] / 1e6


print("%.1f %.1f %.1f %d" % (ops, pct(0.50), pct(0.99), errors))
