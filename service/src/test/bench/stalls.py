"""The stall detector of the bench scripts: how many requests each second of a run answered, and
the seconds that answered far fewer than the run's usual second.

Seconds are whole seconds from the first request's start, and a request counts in the second its
answer arrived in. Only the seconds in which the clients were sending are judged: from the first
request's start to the last request's start, the last partial second left out, and so the ramp-down
after the run's deadline too (the answers still in flight then, nothing new sent).

A second is flagged (a stall) when it answered fewer than a tenth of the median second's
requests. When the median second itself answered fewer than a tenth of the fastest second's (the
run stalled for more than half its time), every second under a tenth of the fastest is flagged.
The same rule is in the load tool (dev.cairn.loadtest.report.Stalls); docs/benchmarks.md.
"""


def per_second(starts, ends):
    """Counts of answers per whole second: starts and ends are the requests' times in seconds."""
    if not starts:
        return []
    first, last = min(starts), max(starts)
    seconds = int(last - first)
    counts = [0] * seconds
    for end in ends:
        k = int(end - first)
        if 0 <= k < seconds:
            counts[k] += 1
    return counts


def median(values):
    v = sorted(values)
    n = len(v)
    if n == 0:
        return 0.0
    return float(v[n // 2]) if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def judge(counts):
    """(median, slowest, index of the slowest, flagged indices) of per-second counts."""
    if not counts:
        return 0.0, 0.0, -1, []
    m = median(counts)
    fastest = max(counts)
    reference = m if m * 10 >= fastest else fastest
    slowest_at = min(range(len(counts)), key=lambda k: counts[k])
    flagged = [k for k, c in enumerate(counts) if c * 10 < reference]
    return m, float(counts[slowest_at]), slowest_at, flagged
