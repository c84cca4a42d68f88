"""Counts and prints the outcome of each check: PASS, FAIL (with why) or SKIP (with why)."""
import sys


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def check(self, name, ok, why=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}: {why}", flush=True)
        return ok

    def skip(self, name, why):
        self.skipped += 1
        print(f"SKIP {name}: {why}", flush=True)

    def error(self, name, exc):
        self.check(name, False, f"{type(exc).__name__}: {exc}")

    def summary(self):
        line = f"{self.passed} passed, {self.failed} failed"
        if self.skipped:
            line += f" ({self.skipped} skipped)"
        print(line, flush=True)
        return 0 if self.failed == 0 else 1


def fail_fast(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)
