#!/usr/bin/env python3
"""Sums JFR execution samples: the top frames, then the share of samples each Cairn, Jetty,
Micrometer or logging method is on the stack of (1 % and more).

usage: jfr print --stack-depth 64 --events jdk.ExecutionSample rec.jfr | jfr_top.py [TOP_FRAMES]
"""
import collections
import re
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 25
top = collections.Counter()
inclusive = collections.Counter()
total = 0
stack = None
for line in sys.stdin:
    s = line.strip()
    if s.startswith("stackTrace = ["):
        stack = []
    elif stack is not None and s.startswith("]"):
        if stack:
            total += 1
            top[stack[0]] += 1
            inclusive.update(set(stack))
        stack = None
    elif stack is not None and s != "...":
        stack.append(re.sub(r"\s+line:.*", "", s))
print("samples", total)
print("--- top frames")
for m, c in top.most_common(N):
    print("%5.1f%%  %s" % (100.0 * c / total, m))
print("--- on the stack (Cairn, Jetty server, Micrometer, logging)")
for m, c in inclusive.most_common():
    if c * 100.0 / total < 1.0:
        break
    if re.search(r"dev\.cairn|org\.eclipse\.jetty\.server\.|micrometer|slf4j|logback|ee10", m):
        print("%5.1f%%  %s" % (100.0 * c / total, m))
