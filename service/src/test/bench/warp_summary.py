#!/usr/bin/env python3
"""Prints "obj/s p50-ms p99-ms errors median-second slowest-second stalled-seconds" of one warp
run: the obj/s warp reports (its average over the time every client was busy), the latency
percentiles of the requests it recorded (its --benchdata file, zstd-compressed tab-separated rows
with start, end, duration_ns and error columns), and the stall detector's figures (stalls.py):
the answers of the median and of the slowest whole second, and how many seconds answered fewer
than a tenth of the median's. With --explain, one line to standard error names the stalled seconds.

usage: warp_summary.py [--explain] WARP-STDOUT BENCHDATA.csv.zst
"""
import calendar
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stalls import judge, per_second  # noqa: E402

args = sys.argv[1:]
explain = "--explain" in args
args = [a for a in args if a != "--explain"]
out, data = args[0], args[1]
text = open(out, encoding="utf-8", errors="replace").read()
m = re.search(r"\* Average: .*?([0-9.]+) obj/s", text)
if not m:
    sys.exit("warp_summary: no average in " + out)
ops = float(m.group(1))

_epoch = {}


def seconds(stamp):
    """An RFC 3339 UTC time with nanoseconds (2026-12-07T18:00:42.127766178Z) in seconds."""
    whole, _, fraction = stamp.rstrip("Z").partition(".")
    base = _epoch.get(whole)
    if base is None:
        base = _epoch[whole] = calendar.timegm((int(whole[0:4]), int(whole[5:7]), int(whole[8:10]),
                                                int(whole[11:13]), int(whole[14:16]), int(whole[17:19])))
    return base + (float("0." + fraction) if fraction else 0.0)


rows = subprocess.run(["zstd", "-dc", data], check=True, capture_output=True, text=True).stdout.splitlines()
header = rows[0].split("\t")
dur, err, start, end = (header.index(c) for c in ("duration_ns", "error", "start", "end"))
durations, errors, starts, ends = [], 0, [], []
for row in rows[1:]:
    f = row.split("\t")
    if len(f) <= dur:
        continue
    starts.append(seconds(f[start]))
    ends.append(seconds(f[end]))
    if f[err]:
        errors += 1
        continue
    durations.append(int(f[dur]))
if not durations:
    sys.exit("warp_summary: no successful request in " + data)
durations.sort()


def pct(p):
    return durations[min(len(durations) - 1, int(p * len(durations)))] / 1e6


counts = per_second(starts, ends)
median, slowest, slowest_at, flagged = judge(counts)
if explain and flagged:
    fastest = max(counts)
    against = "the median second (%.0f)" % median if median * 10 >= fastest else \
        "the fastest second (%d; the median second, %.0f, is itself under a tenth of it)" % (fastest, median)
    print("warp_summary: %d of %d seconds answered under a tenth of %s: %s" % (
        len(flagged), len(counts), against,
        ", ".join("second %d: %d" % (k, counts[k]) for k in flagged)), file=sys.stderr)
print("%.1f %.1f %.1f %d %.0f %.0f %d" % (ops, pct(0.50), pct(0.99), errors, median, slowest, len(flagged)))
