"""Checks that need no running service: lint, renders, Kubernetes schemas, unit suites, bad
values, the documentation of every value, and the Dockerfile against the chart."""
import os
import re
import subprocess
from pathlib import Path

import kubernetes_validate
import yaml

import dockerfile
from chart import find

# Kinds of custom resources: the Kubernetes schemas do not know them; the unit suites check them.
CUSTOM_KINDS = {("monitoring.coreos.com/v1", "ServiceMonitor")}


def kubernetes_versions(count=3):
    """The newest `count` minor releases whose schemas kubernetes-validate ships."""
    schema_root = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
    versions = set()
    for d in schema_root.iterdir():
        m = re.match(r"v(\d+)\.(\d+)\.(\d+)-local$", d.name)
        if m:
            versions.add(tuple(int(x) for x in m.groups()))
    newest_per_minor = {}
    for v in sorted(versions):
        newest_per_minor[v[:2]] = v
    return [".".join(map(str, v)) for _, v in sorted(newest_per_minor.items())[-count:]]


def lint(report, chart, values_sets):
    for name, files in values_sets:
        args = ["lint", "--strict", "--kube-version", chart.kube_version, str(chart.dir)]
        for f in files:
            args += ["-f", str(f)]
        result = chart.run(*args)
        report.check(f"helm lint --strict ({name})", result.returncode == 0,
                     (result.stdout + result.stderr).strip()[-2000:])


def render_and_validate(report, chart, values_sets, versions):
    for name, files in values_sets:
        for version in versions:
            try:
                docs = chart.render(files, kube_version=version)
            except RuntimeError as e:
                report.check(f"helm template ({name}, Kubernetes {version})", False, str(e))
                continue
            report.check(f"helm template ({name}, Kubernetes {version}): {len(docs)} objects", True)
            errors, validated = [], 0
            for doc in docs:
                if (doc["apiVersion"], doc["kind"]) in CUSTOM_KINDS:
                    continue
                try:
                    kubernetes_validate.validate(doc, version, strict=True)
                    validated += 1
                except kubernetes_validate.ValidationError as e:
                    errors.append(f"{doc['kind']}/{doc['metadata']['name']}: {e.message} at {list(e.path)}")
                except Exception as e:  # an unknown kind or version is a failure too
                    errors.append(f"{doc['kind']}/{doc['metadata']['name']}: {type(e).__name__} {e}")
            report.check(f"Kubernetes {version} schemas, strict ({name}): {validated} objects valid",
                         not errors, "; ".join(errors))


def unit_suites(report, unittest_binary, chart_dir):
    result = subprocess.run([unittest_binary, "--strict", str(chart_dir)], capture_output=True, text=True)
    out = result.stdout + result.stderr
    print(re.sub(r"\n\s*\n", "\n", out).strip())
    m = re.search(r"Tests:\s+(?:(\d+) failed, )?(\d+) passed, (\d+) total", out)
    summary = f"{m.group(2)} of {m.group(3)} tests passed" if m else "no summary"
    report.check(f"helm-unittest suites ({summary})", result.returncode == 0 and m is not None, out[-3000:])


def bad_values(report, chart, bad_dir):
    for f in sorted(Path(bad_dir).glob("*.yaml")):
        expected = [line.split("# expect:", 1)[1].strip()
                    for line in f.read_text().splitlines() if line.startswith("# expect:")]
        result = chart.template([f])
        missing = [e for e in expected if e not in result.stderr]
        ok = result.returncode != 0 and expected and not missing
        why = ("rendered without error" if result.returncode == 0
               else f"message lacks {missing!r}; helm said: {result.stderr.strip()}")
        report.check(f"bad values refused with their message: {f.name}", ok, why)


def values_documented(report, values_file):
    """Every value has a `## @param` (itself or a map above it); every @param names a value."""
    text = Path(values_file).read_text()
    params = set(re.findall(r"^\s*## @param (\S+) \S", text, re.M))
    leaves = []

    def walk(node, path):
        if isinstance(node, dict) and node and path not in params:
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else k)
        else:
            leaves.append(path)

    values = yaml.safe_load(text)
    walk(values, "")

    def exists(path):
        node = values
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        return True

    undocumented = [leaf for leaf in leaves
                    if not any(leaf == p or leaf.startswith(p + ".") for p in params)]
    unknown = sorted(p for p in params if not exists(p))
    report.check(f"values.yaml documents all {len(leaves)} values with ## @param", not undocumented,
                 f"undocumented: {undocumented}")
    report.check(f"every ## @param names a value ({len(params)})", not unknown, f"unknown: {unknown}")


def dockerfile_matches_chart(report, root, chart, built_modules):
    path = root / "Dockerfile"
    stages = dockerfile.parse(path)
    report.check("Dockerfile has a build stage and a runtime stage", len(stages) >= 2,
                 f"{len(stages)} stages")
    build, runtime = stages[0], stages[-1]
    build_runs = " ".join(build.all("RUN"))
    report.check("Dockerfile builds service and backup-dc with the repository's ./mvnw",
                 re.search(r"\./mvnw .*package .*-pl (\S*,)?service\b", build_runs) is not None
                 and "backup-dc" in build_runs, build_runs)
    report.check("Dockerfile runtime stage is a JRE", "jre" in runtime.base, runtime.base)

    values = yaml.safe_load((chart.dir / "values.yaml").read_text())
    user = runtime.last("USER") or "root"
    uid = user.split(":")[0]
    report.check(f"Dockerfile runs as a non-root user ({user}) that the chart's runAsUser names",
                 uid not in ("root", "0") and uid == str(values["podSecurityContext"]["runAsUser"]),
                 f"USER {user}, chart runAsUser {values['podSecurityContext']['runAsUser']}")

    docs = chart.render(kube_version=chart.kube_version)
    container = find(docs, "StatefulSet")["spec"]["template"]["spec"]["containers"][0]
    port = container["ports"][0]["containerPort"]
    health = dockerfile.healthcheck_command(runtime)
    report.check("Dockerfile HEALTHCHECK probes the chart's readiness path on the service's port",
                 health is not None
                 and container["readinessProbe"]["httpGet"]["path"] in " ".join(health)
                 and f"/{port}" in " ".join(health), f"HEALTHCHECK {health}")
    report.check("Dockerfile EXPOSEs the chart's port", str(port) in runtime.all("EXPOSE"),
                 f"EXPOSE {runtime.all('EXPOSE')}, chart {port}")

    entrypoint = dockerfile.exec_form(runtime.last("ENTRYPOINT") or "")
    destinations = {dest for _, _, dest in dockerfile.copies(runtime)}
    report.check("Dockerfile ENTRYPOINT runs the copied service jar",
                 entrypoint is not None and entrypoint[0] == "java" and "-jar" in entrypoint
                 and entrypoint[entrypoint.index("-jar") + 1] in destinations, f"ENTRYPOINT {entrypoint}")

    ignored = [l.strip() for l in (root / ".dockerignore").read_text().splitlines()
               if l.strip() and not l.startswith("#")]
    workdir = build.last("WORKDIR") or "/"
    for source_stage, sources, dest in dockerfile.copies(runtime):
        for source in sources:
            if source_stage is None:
                local = root / source
                report.check(f"Dockerfile COPY {source}: in the build context and not ignored",
                             local.exists() and not any(local.match(p) or source.startswith(p.rstrip("/"))
                                                        for p in ignored), "missing or ignored")
                continue
            local = root / os.path.relpath(source, workdir)
            module = Path(os.path.relpath(source, workdir)).parts[0]
            if module not in built_modules:
                report.skip(f"Dockerfile COPY --from={source_stage} {source}",
                            f"module {module} is not in this tree yet, so its output cannot be checked")
                continue
            report.check(f"Dockerfile COPY --from={source_stage} {source}: produced by the Maven package",
                         local.exists() and (not source.endswith("/") or any(local.iterdir())),
                         f"{local} missing or empty")

    image_env = dockerfile.env(runtime)
    report.check("image's PATH finds the backup job's launcher (the CronJob's command)",
                 "/opt/cairn/bin" in image_env.get("PATH", "").split(":")
                 and "/opt/cairn/bin/cairn-backup" in destinations, f"PATH {image_env.get('PATH')}")
    launcher = (root / "helm/image/cairn-backup").read_text()
    report.check("backup launcher runs dev.cairn.backup.Main from the copied jar and lib/",
                 "dev.cairn.backup.Main" in launcher and "/opt/cairn/backup/cairn-backup.jar" in destinations
                 and "/opt/cairn/backup/lib/" in destinations and os.access(root / "helm/image/cairn-backup", os.X_OK),
                 launcher)
    cairn_env = [k for k in image_env if k.startswith("CAIRN_") or k.startswith("SERVER_")]
    report.check("image fixes no service setting in its environment (it would override the chart's file)",
                 not cairn_env, f"ENV {cairn_env}")
    made = " ".join(runtime.all("RUN"))
    mounts = [m["mountPath"] for m in container["volumeMounts"] if m["mountPath"].startswith("/var/lib/cairn")]
    report.check("image creates and hands the user the chart's data mount points",
                 all(m in made for m in mounts) and "chown" in made, f"mounts {mounts}")
