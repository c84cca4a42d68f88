"""The chart's tests (bin/test-helm runs them): prints PASS/FAIL per check and `N passed, N failed`."""
import argparse
import sys
from pathlib import Path

import render_and_run
import static_checks
from chart import Chart
from report import Report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--helm", required=True)
    parser.add_argument("--unittest", required=True)
    parser.add_argument("--jar", type=Path, required=True)
    parser.add_argument("--backup-jar", type=Path, help="backup-dc's jar, beside its lib/; without it no backup job runs")
    parser.add_argument("--built-modules", default="service")
    parser.add_argument("--only", help="run only the steps whose names contain this")
    args = parser.parse_args()

    chart_dir = args.root / "helm/cairn"
    test_dir = args.root / "helm/test"
    versions = static_checks.kubernetes_versions()
    print(f"Kubernetes schemas: {', '.join(versions)}")
    chart = Chart(args.helm, chart_dir, versions[-1])
    report = Report()
    values_sets = [("default values", [])] + [
        (f"ci/{f.name}", [f]) for f in sorted((chart_dir / "ci").glob("*.yaml"))]

    steps = [
        ("lint", lambda: static_checks.lint(report, chart, values_sets)),
        ("render", lambda: static_checks.render_and_validate(report, chart, values_sets, versions)),
        ("unit suites", lambda: static_checks.unit_suites(report, args.unittest, chart_dir)),
        ("bad values", lambda: static_checks.bad_values(report, chart, test_dir / "bad-values")),
        ("values documented", lambda: static_checks.values_documented(report, chart_dir / "values.yaml")),
        ("Dockerfile", lambda: static_checks.dockerfile_matches_chart(
            report, args.root, chart, set(args.built_modules.split(",")))),
        ("render and run", lambda: render_and_run.run_all(
            report, chart, chart_dir / "ci", args.root, args.jar, args.backup_jar,
            test_dir / "awaiting-service.txt")),
    ]
    for name, step in steps:
        if args.only and args.only not in name:
            continue
        print(f"--- {name}", flush=True)
        try:
            step()
        except Exception as e:
            report.error(name, e)
    return report.summary()


if __name__ == "__main__":
    sys.exit(main())
