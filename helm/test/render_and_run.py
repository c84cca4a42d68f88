"""The chart as rendered, run: for each values file of helm/cairn/ci/, its combination of mode, TLS
and backup is rendered, and the pod of its StatefulSet (mode embedded) or Deployment (mode
cassandra) runs the real service jar the way the pod would (pod.py, sandbox.py: the container's
user and fsGroup, a read-only root with only the rendered volumes writable, the memory limit as the
JVM's, the entrypoint, arguments and environment exactly as rendered, in a network namespace no
other process of the host shares, so the rendered port is bound as is) and is driven with boto3;
with backups on, the CronJob's container then runs its command beside that service, as rendered.

Mode cassandra runs against one real cluster (cassandra_cluster.py) started for all its files:
each is rendered with that cluster's contact points, datacenters, replication and Redis, and the
pod joins the cluster's network namespace instead of getting one of its own.

Two arguments are added to the service's, both to read back the settings: the actuator's
configprops endpoint, which lists every bound cairn.* setting with the file or variable it came from.
"""
import base64
import json
import os
import shutil
import ssl
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import boto3
import yaml
from botocore.config import Config

import cassandra_cluster
import cql
import dockerfile
import pod
import sandbox
from chart import find
from settings import check_defaults_written_once, check_settings_bound, chart_defaults

READ_BACK_ARGS = ["--management.endpoints.web.exposure.include=health,info,metrics,prometheus,configprops",
                  "--management.endpoint.configprops.show-values=ALWAYS"]
NAMESPACE = "cairn-test"
COMBINATIONS = [(mode, tls, backup) for mode in ("embedded", "cassandra") for tls in (False, True)
                for backup in (False, True)]


def describe(combination):
    mode, tls, backup = combination
    return f"mode {mode}, TLS {'on' if tls else 'off'}, backup {'on' if backup else 'off'}"


def merged(base, override):
    out = dict(base)
    for k, v in (override or {}).items():
        out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def run_all(report, chart, ci_dir, root, jar, backup_jar, awaiting_file):
    """Every ci/ values file rendered and run (or refused); every combination covered by one."""
    defaults = yaml.safe_load((chart.dir / "values.yaml").read_text())
    covered = {}
    for values_file in sorted(Path(ci_dir).glob("*.yaml")):
        values = merged(defaults, yaml.safe_load(values_file.read_text()))
        combination = (values["mode"], bool(values["tls"]["existingSecret"]), bool(values["backup"]["enabled"]))
        covered.setdefault(combination, []).append(values_file.name)
    for combination in COMBINATIONS:
        report.check(f"ci/ covers {describe(combination)}", combination in covered,
                     "add a values file to helm/cairn/ci/ for it")

    why_not = sandbox.missing_requirements()
    reference = chart_defaults(chart)
    cassandra = None  # the Cassandra cluster, started for the first mode-cassandra run, shared by all
    try:
        for combination, files in sorted(covered.items()):
            for name in files:
                values_file = Path(ci_dir) / name
                values = merged(defaults, yaml.safe_load(values_file.read_text()))
                title = f"ci/{name} ({describe(combination)})"
                result = chart.template([values_file], release="r", namespace=NAMESPACE)
                if result.returncode != 0:
                    # A combination the chart cannot run must be refused with a message saying why.
                    report.check(f"{title}: refused at render time with a message", "VALUES ERROR" in result.stderr,
                                 result.stderr.strip()[-1500:])
                    continue
                if why_not:
                    report.skip(f"{title}: run", why_not)
                    continue
                if values["mode"] == "cassandra":
                    if cassandra is None:
                        cassandra = cassandra_cluster.TestCluster(root)
                        cassandra.start()
                    if cassandra.why_not:
                        report.skip(f"{title}: run", cassandra.why_not)
                        continue
                    if values["cassandra"]["redis"]["enabled"] and cassandra.redis_address is None:
                        report.skip(f"{title}: run", "needs redis-server (bin/install-test-deps installs it)")
                        continue
                    values, result = render_for_cluster(chart, values_file, values, cassandra)
                    if not report.check(f"{title}: renders against the test's Cassandra cluster",
                                        result.returncode == 0, result.stderr.strip()[-1500:]):
                        continue
                print(f"--- render and run {title}", flush=True)
                docs = [d for d in yaml.safe_load_all(result.stdout) if d]
                began = time.monotonic()
                try:
                    run(report, title, docs, values, root, jar, backup_jar, awaiting_file, reference,
                        cassandra if values["mode"] == "cassandra" else None)
                except Exception as e:
                    report.error(f"{title}: run", e)
                print(f"--- {title} ran in {time.monotonic() - began:.0f} s", flush=True)
    finally:
        if cassandra is not None:
            cassandra.stop()


def render_for_cluster(chart, values_file, values, cluster):
    """The ci/ file rendered with the test cluster's contact points, datacenters, replication and
    Redis, a keyspace of its own (each run starts on an empty store), and, for an S3 backup target,
    the service itself as that target. Returns (values, helm's result)."""
    keyspace = "helm_" + "".join(c if c.isalnum() else "_" for c in values_file.stem)
    overrides = {"cassandra": {"contactPoints": [cluster.contact_point],
                               "backupContactPoints": [cluster.backup_contact_point],
                               "localDatacenter": "serving", "backupDatacenter": "backup", "keyspace": keyspace,
                               "replication": {"serving": 1, "backup": 1}}}
    if values["cassandra"]["redis"]["enabled"]:
        overrides["cassandra"]["redis"] = {"address": cluster.redis_address}
    if values["backup"]["enabled"] and values["backup"]["target"]["type"] == "s3":
        scheme = "https" if values["tls"]["existingSecret"] else "http"
        overrides["backup"] = {"target": {"s3": {"endpoint": f"{scheme}://127.0.0.1:{values['service']['port']}"}}}
    override_file = cluster.dir / f"{values_file.stem}-overrides.yaml"
    override_file.write_text(yaml.safe_dump(overrides))
    result = chart.template([values_file, override_file], release="r", namespace=NAMESPACE)
    return merged(values, overrides), result


def run(report, title, docs, values, root, jar, backup_jar, awaiting_file, reference, cassandra=None):
    tmp = Path(tempfile.mkdtemp(prefix="cairn-helm-run-"))
    try:
        run_in(tmp, report, title, docs, values, root, jar, backup_jar, awaiting_file, reference, cassandra)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_in(tmp, report, title, docs, values, root, jar, backup_jar, awaiting_file, reference, cassandra):
    """`cassandra`: the test's Cassandra cluster (mode cassandra), whose network namespace the pod
    joins; else the pod gets a network namespace of its own."""
    statefulset = workload(docs)
    spec = statefulset["spec"]["template"]["spec"]
    container = spec["containers"][0]
    runtime = dockerfile.parse(root / "Dockerfile")[-1]
    service = find(docs, "Service", statefulset["metadata"]["name"])
    service_host = f"{service['metadata']['name']}.{NAMESPACE}.svc"
    hosts = [f"127.0.0.1 {service_host} {service['metadata']['name']}"]
    jars = {"/opt/cairn/cairn-service.jar": jar}
    if backup_jar is not None:
        jars.update({"/opt/cairn/backup/cairn-backup.jar": backup_jar,
                     "/opt/cairn/backup/lib": backup_jar.parent / "lib"})
    launcher = root / "helm/image/cairn-backup"
    cluster = pod.Cluster(docs, values, tmp, service_host)
    claims = {t["metadata"]["name"] for t in statefulset["spec"].get("volumeClaimTemplates", [])}
    pod_name = statefulset["metadata"]["name"] + "-0"
    server = pod.container(cluster, pod_name, spec, claims, runtime, jars, launcher, hosts, tmp / "root-service")
    server.argv += READ_BACK_ARGS
    rendered_config = yaml.safe_load(find(docs, "ConfigMap")["data"]["application.yaml"])
    port = container["ports"][0]["containerPort"]
    report.check(f"{title}: the container port is the service's server.port",
                 port == rendered_config["server"]["port"], f"{port} vs {rendered_config['server']['port']}")
    tls = bool(values["tls"]["existingSecret"])
    scheme = "https" if tls else "http"
    context = None
    if tls:
        context = ssl.create_default_context(cafile=str(tmp / "pki/ca.crt"))
    base = f"{scheme}://127.0.0.1:{port}"
    # With metrics.managementPort the actuator (beyond the probes) answers there, in plain HTTP.
    management = values["metrics"]["managementPort"]
    actuator = (f"http://127.0.0.1:{management}", None) if management else (base, context)
    log_path = tmp / "service.log"
    process = None
    try:
        with open(log_path, "w") as log:
            process = server.start(log, net_of=cassandra.network if cassandra else None)
        wait_for_namespace(process.pid)
        with sandbox.NetworkNamespace(process.pid):
            status = wait_ready(process, probe_url(container, "readinessProbe"), ssl._create_unverified_context())
            if not report.check(f"{title}: the service starts as rendered (user {server.uid}, read-only root,"
                                f" memory limit {container['resources']['limits']['memory']}) and turns ready",
                                status == 200, f"status {status}, exit {process.poll()}; log:\n"
                                + log_path.read_text(errors="replace")[-4000:]):
                return
            admin = (server.env["CAIRN_AUTH_ACCESSKEY"], server.env["CAIRN_AUTH_SECRETKEY"])
            check_probes(report, title, container)
            check_image_healthcheck(report, title, runtime, port, tls)
            check_service_monitor(report, title, docs, actuator, admin)
            check_heap(report, title, actuator, admin, container, values)
            props = read_configprops(report, title, actuator, admin)
            if props is not None:
                check_settings_bound(report, title, props, rendered_config, container, awaiting_file)
                if reference:  # the same for every run: checked once
                    check_defaults_written_once(report, title, props, reference, root)
                    reference.clear()
            region = props["properties"]["region"] if props else rendered_config["cairn"]["region"]
            s3 = s3_client(base, region, admin, tmp / "pki/ca.crt" if tls else None)
            check_s3(report, title, s3, base, region, admin, tmp / "pki/ca.crt" if tls else None)
            if values["mode"] == "embedded":
                fast = [m for m in container["volumeMounts"] if m["name"] == "fast"][0]
                engine = server.mounts[fast["mountPath"]][0] / "engine"
                report.check(f"{title}: the engine writes on the fast tier's volume", engine.is_dir(),
                             f"{sorted(os.listdir(engine.parent))}")
            log_text = log_path.read_text(errors="replace")
            if cassandra is not None:
                check_cassandra_settings(report, title, rendered_config, server.env, log_text, cassandra)
            budget = [l for l in log_text.splitlines() if "the caches and memtables may hold" in l]
            report.check(f"{title}: the caches fit the heap the memory limit gives (no heap budget warning)",
                         not budget, "\n".join(budget))
            report.check(f"{title}: nothing tried to write outside the volumes (no 'Read-only file system' in the log)",
                         "Read-only file system" not in log_text,
                         "\n".join(l for l in log_text.splitlines() if "Read-only file system" in l)[:2000])
            if values["backup"]["enabled"]:
                run_backup(report, title, docs, values, cluster, runtime, jars, launcher, hosts, tmp, process, s3)
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=120)  # graceful shutdown runs late on a loaded machine
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None:
            report.check(f"{title}: the service stops cleanly on SIGTERM (graceful shutdown)",
                         process.returncode in (0, 143), f"exit {process.returncode}")


def check_cassandra_settings(report, title, rendered_config, env, log_text, cassandra):
    """cairn.cassandra.* by their effect on the test's cluster (the actuator does not list them); the
    contact points and local datacenter are the ones S3 went through (check_s3)."""
    c = rendered_config["cairn"]["cassandra"]
    expected = {dc: str(n) for dc, n in c["replication"].items()}
    try:
        found = cql.replication(c["contact-points"][0], c["keyspace"])
    except OSError as e:
        found = e
    report.check(f"{title}: the service created keyspace {c['keyspace']} replicated as rendered {expected}"
                 f" (through {c['contact-points']}, datacenter {c['local-datacenter']})",
                 isinstance(found, dict) and found.get("class", "").endswith("NetworkTopologyStrategy")
                 and {k: v for k, v in found.items() if k != "class"} == expected, f"found {found}")
    if "CAIRN_CASSANDRA_USERNAME" in env:
        # The test's cluster asks for no password: a driver given credentials says so.
        report.check(f"{title}: the driver was given the rendered Cassandra credentials (CAIRN_CASSANDRA_USERNAME,"
                     f" CAIRN_CASSANDRA_PASSWORD)", "did not send an authentication challenge" in log_text,
                     "no 'did not send an authentication challenge' warning in the log: credentials not bound")
    if c["cache"]["invalidation"] == "redis":
        listed = cassandra.in_namespace(["redis-cli", "-h", "127.0.0.1", "-p", str(cassandra_cluster.REDIS_PORT),
                                         "PUBSUB", "CHANNELS"]).stdout.split()
        channel = c["cache"].get("redis-channel")
        report.check(f"{title}: the service listens for invalidations on Redis {c['cache']['redis-address']}"
                     f" (channel {channel or 'the default'})", channel in listed if channel else bool(listed),
                     f"channels with subscribers: {listed}")


def workload(docs):
    """The service's StatefulSet (mode embedded) or Deployment (mode cassandra)."""
    found = [d for d in docs if d["kind"] in ("StatefulSet", "Deployment")]
    if len(found) != 1:
        raise LookupError(f"expected one StatefulSet or Deployment, rendered {len(found)}")
    return found[0]


def wait_for_namespace(pid, timeout=30):
    """Until the process has left this network namespace (unshare has run)."""
    mine = os.readlink("/proc/self/ns/net")
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if os.readlink(f"/proc/{pid}/ns/net") != mine:
                return
        except FileNotFoundError:
            return
        time.sleep(0.05)


def wait_ready(process, url, context, timeout=300):
    deadline = time.time() + timeout  # a JVM starting on a loaded machine
    status = None
    while time.time() < deadline and process.poll() is None:
        try:
            status, _ = http_get(url, timeout=2, context=context)
            if status == 200:
                break
        except OSError:
            pass
        time.sleep(0.5)
    return status


def http_get(url, timeout=60, auth=None, context=None):
    """GET, with HTTP Basic credentials (access key, secret) when given: the actuator beyond health needs them."""
    request = urllib.request.Request(url)
    if auth is not None:
        token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        request.add_header("Authorization", "Basic " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def probe_url(container, probe):
    get = container[probe]["httpGet"]
    named = {p["name"]: p["containerPort"] for p in container["ports"]}
    return f"{get['scheme'].lower()}://127.0.0.1:{named.get(get['port'], get['port'])}{get['path']}"


def check_probes(report, title, container):
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        get = container[probe]["httpGet"]
        # The kubelet does not verify the certificate of an HTTPS probe.
        code, _ = http_get(probe_url(container, probe), context=ssl._create_unverified_context())
        report.check(f"{title}: {probe} {get['scheme']} {get['path']} on port {get['port']} answers 200",
                     code == 200, f"status {code}")


def check_image_healthcheck(report, title, runtime, port, tls):
    health = [w.replace("/9000", f"/{port}") for w in dockerfile.healthcheck_command(runtime)]
    if tls:
        report.skip(f"{title}: the image's HEALTHCHECK", "it speaks plain HTTP; Kubernetes ignores it and uses the probes")
        return
    report.check(f"{title}: the image's HEALTHCHECK command passes against the service",
                 subprocess.run(health, capture_output=True, timeout=60).returncode == 0, str(health))


def check_service_monitor(report, title, docs, actuator, admin):
    monitors = [d for d in docs if d["kind"] == "ServiceMonitor"]
    if not monitors:
        return
    base, context = actuator
    endpoint = monitors[0]["spec"]["endpoints"][0]
    code, _ = http_get(base + endpoint["path"], context=context)
    report.check(f"{title}: the ServiceMonitor's {endpoint['path']} refuses an anonymous scrape", code == 403,
                 f"status {code}")
    report.check(f"{title}: the ServiceMonitor carries Basic credentials for it", "basicAuth" in endpoint, str(endpoint))
    code, body = http_get(base + endpoint["path"], auth=admin, context=context)
    report.check(f"{title}: the ServiceMonitor's {endpoint['path']} serves Cairn's metrics to a key allowed to read them",
                 code == 200 and "cairn_" in body, f"status {code}")


def check_heap(report, title, actuator, admin, container, values):
    """The JVM sizes its heap from the container's memory limit and the rendered MaxRAMPercentage."""
    base, context = actuator
    code, body = http_get(base + "/actuator/metrics/jvm.memory.max?tag=area:heap", auth=admin, context=context)
    limit = pod.quantity_bytes(container["resources"]["limits"]["memory"])
    expected = limit * float(values["jvm"]["maxRamPercentage"]) / 100
    heap = json.loads(body)["measurements"][0]["value"] if code == 200 else None
    report.check(f"{title}: the heap's limit is {values['jvm']['maxRamPercentage']} % of the memory limit",
                 heap is not None and abs(heap - expected) / expected < 0.05,
                 f"status {code}, heap max {heap}, expected about {expected:.0f}")


def read_configprops(report, title, actuator, admin):
    base, context = actuator
    code, body = http_get(base + "/actuator/configprops", timeout=30, auth=admin, context=context)
    if not report.check(f"{title}: the actuator lists the bound settings", code == 200, f"status {code}"):
        return None
    beans = [b for ctx in json.loads(body)["contexts"].values() for b in ctx["beans"].values()
             if b["prefix"] == "cairn"]
    return beans[0]


def s3_options(base, region, ca_file):
    return dict(endpoint_url=base, region_name=region, verify=str(ca_file) if ca_file else None,
                config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def s3_client(base, region, admin, ca_file):
    return boto3.client("s3", aws_access_key_id=admin[0], aws_secret_access_key=admin[1],
                        **s3_options(base, region, ca_file))


def check_s3(report, title, s3, base, region, admin, ca_file):
    options = s3_options(base, region, ca_file)
    body = os.urandom(20000)
    try:
        s3.create_bucket(Bucket="helm-chart")
        s3.put_object(Bucket="helm-chart", Key="images/cat.jpg", Body=body, ContentType="image/jpeg")
        got = s3.get_object(Bucket="helm-chart", Key="images/cat.jpg")
        read = got["Body"].read()
        listed = [o["Key"] for o in s3.list_objects_v2(Bucket="helm-chart").get("Contents", [])]
        report.check(f"{title}: S3 with the chart's credentials: create bucket, put, get, list",
                     read == body and got["ContentType"] == "image/jpeg" and listed == ["images/cat.jpg"],
                     f"read {len(read)} bytes, listed {listed}")
    except Exception as e:
        report.error(f"{title}: S3 with the chart's credentials", e)
    wrong = boto3.client("s3", aws_access_key_id=admin[0], aws_secret_access_key="wrong", **options)
    try:
        wrong.list_buckets()
        report.check(f"{title}: a wrong secret key is refused", False, "ListBuckets succeeded")
    except wrong.exceptions.ClientError as e:
        report.check(f"{title}: a wrong secret key is refused (SignatureDoesNotMatch)",
                     e.response["Error"]["Code"] == "SignatureDoesNotMatch", str(e))


def run_backup(report, title, docs, values, cluster, runtime, jars, launcher, hosts, tmp, server_process, s3):
    """The CronJob's pod, as rendered, beside the service's (its network, the same claims)."""
    if "/opt/cairn/backup/cairn-backup.jar" not in jars:
        report.skip(f"{title}: the backup CronJob's command", "backup-dc is not built in this tree")
        return
    cronjob = find(docs, "CronJob")
    job_pod = cronjob["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    job = pod.container(cluster, cronjob["metadata"]["name"] + "-manual", job_pod, set(), runtime, jars, launcher,
                        hosts, tmp / "root-backup")
    target = values["backup"]["target"]
    bucket = prefix = None
    if target["type"] == "s3":  # the service itself is the target here (render_for_cluster)
        bucket, _, prefix = target["s3"]["url"].removeprefix("s3://").partition("/")
        s3.create_bucket(Bucket=bucket)
    log_path = tmp / "backup.log"
    with open(log_path, "w") as log:
        process = job.start(log, net_of=server_process)
        try:
            code = process.wait(timeout=600)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
    out = log_path.read_text(errors="replace")
    report.check(f"{title}: the backup job wrote nothing outside its volumes (no 'Read-only file system' in its output)",
                 "Read-only file system" not in out, out[-2000:])
    if bucket is not None:
        written = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])]
    else:
        host = job.mounts["/backup"][0]
        written = [str(p.relative_to(host)) for p in host.rglob("*") if p.is_file()]
    source = job.argv[job.argv.index("--source") + 1:]
    source = " ".join(source[:source.index("--target")])
    report.check(f"{title}: the backup CronJob's command, as rendered (--source {source}), backs up the running"
                 f" service into {target['type']} target", code == 0 and bool(written),
                 f"exit {code}, {len(written)} files in the target; output:\n{out[-3000:]}")
