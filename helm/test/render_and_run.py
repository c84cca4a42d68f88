"""Starts the real service jar with exactly what the chart renders for mode embedded (the
ConfigMap's file, the container's environment and arguments, the image's entrypoint, working
directory and environment), paths moved below a temporary directory and the port to one the
service binds itself (port 0, read from its startup line), then drives it with boto3. This proves the chart's settings are the service's.

Only two arguments are added, both to read back the settings: the actuator's configprops
endpoint, which lists every bound cairn.* setting with the file or variable it came from.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import boto3
import yaml
from botocore.config import Config

import dockerfile
from chart import find, secret_value

READ_BACK_ARGS = ["--management.endpoints.web.exposure.include=health,info,metrics,prometheus,configprops",
                  "--management.endpoint.configprops.show-values=ALWAYS"]


# The service's startup line, printed once it listens: it binds port 0 and tells the port it got (a
# port picked free here could be taken by another process before the service binds it).
SERVING = re.compile(r"Cairn is serving S3 at https?://[^\s:]+:(\d+)")


def http_get(url, timeout=60, auth=None):
    """GET, with HTTP Basic credentials (access key, secret) when given: the actuator beyond health needs them."""
    request = urllib.request.Request(url)
    if auth is not None:
        token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        request.add_header("Authorization", "Basic " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def kebab_to_camel(name):
    head, *rest = name.split("-")
    return head + "".join(p.capitalize() for p in rest)


def leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    else:
        yield path, node


def bound_input(inputs, path):
    node = inputs
    for part in path:
        key = kebab_to_camel(part)
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def run(report, chart, values_file, root, jar, awaiting_file):
    docs = chart.render([values_file], release="r", namespace="cairn-test")
    statefulset = find(docs, "StatefulSet")
    pod = statefulset["spec"]["template"]["spec"]
    container = pod["containers"][0]
    stages = dockerfile.parse(root / "Dockerfile")
    runtime = stages[-1]
    tmp = Path(tempfile.mkdtemp(prefix="cairn-helm-run-"))
    process = None
    try:
        mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
        volumes = {v["name"]: v for v in pod["volumes"]}
        volumes.update({t["metadata"]["name"]: {"pvc": t} for t in statefulset["spec"]["volumeClaimTemplates"]})

        def local(path):
            return str(tmp / path.lstrip("/"))

        mount_pattern = re.compile("|".join(re.escape(m) for m in sorted(mounts, key=len, reverse=True)))

        def remap(text):
            return mount_pattern.sub(lambda m: local(m.group(0)), text)

        config_file = None
        for path, mount in mounts.items():
            volume = volumes[mount["name"]]
            Path(local(path)).mkdir(parents=True, exist_ok=True)
            if "configMap" in volume:
                configmap = find(docs, "ConfigMap", volume["configMap"]["name"])
                for name, content in configmap["data"].items():
                    (Path(local(path)) / name).write_text(remap(content))
                config_file = Path(local(path)) / "application.yaml"
        rendered_config = yaml.safe_load(find(docs, "ConfigMap")["data"]["application.yaml"])
        report.check("the container port is the service's server.port",
                     container["ports"][0]["containerPort"] == rendered_config["server"]["port"],
                     f"{container['ports'][0]['containerPort']} vs {rendered_config['server']['port']}")
        config = yaml.safe_load(config_file.read_text())
        config["server"]["port"] = 0
        config_file.write_text(yaml.safe_dump(config))

        env = {"PATH": os.environ["PATH"], "HOME": str(tmp), "LANG": "C.UTF-8"}
        for key, value in dockerfile.env(runtime).items():
            if key != "PATH":
                env[key] = value
        for var in container["env"]:
            if "value" in var:
                env[var["name"]] = remap(var["value"])
            else:
                ref = var["valueFrom"]["secretKeyRef"]
                env[var["name"]] = secret_value(docs, ref["name"], ref["key"])
        if "/tmp" in mounts:
            env["JAVA_TOOL_OPTIONS"] = env.get("JAVA_TOOL_OPTIONS", "") + f" -Djava.io.tmpdir={local('/tmp')}"
        entrypoint = dockerfile.exec_form(runtime.last("ENTRYPOINT"))
        jar_in_image = entrypoint[entrypoint.index("-jar") + 1]
        command = [str(jar) if word == jar_in_image else word for word in entrypoint]
        command += [remap(a) for a in container.get("args", [])] + READ_BACK_ARGS
        workdir = Path(local(runtime.last("WORKDIR") or "/"))
        workdir.mkdir(parents=True, exist_ok=True)
        before = set(os.listdir(workdir))

        log = open(tmp / "service.log", "w")
        process = subprocess.Popen(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        readiness = container["readinessProbe"]["httpGet"]["path"]
        deadline = time.time() + 300  # a JVM starting on a loaded machine
        status = None
        port = None
        while time.time() < deadline and process.poll() is None:
            if port is None:
                serving = SERVING.search((tmp / "service.log").read_text(errors="replace"))
                port = int(serving.group(1)) if serving else None
            if port is not None:
                try:
                    status, _ = http_get(f"http://127.0.0.1:{port}{readiness}", timeout=2)
                    if status == 200:
                        break
                except OSError:
                    pass
            time.sleep(0.5)
        base = f"http://127.0.0.1:{port}"
        if not report.check("the service starts with the chart's settings and turns ready", status == 200,
                            f"status {status}, exit {process.poll()}; log:\n"
                            + (tmp / "service.log").read_text()[-4000:]):
            return

        for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
            get = container[probe]["httpGet"]
            code, _ = http_get(base + get["path"])
            report.check(f"{probe} {get['path']} answers 200 on the port named {get['port']}",
                         code == 200 and get["port"] == container["ports"][0]["name"], f"status {code}")
        monitor = find(docs, "ServiceMonitor")["spec"]["endpoints"][0]
        admin = (env["CAIRN_AUTH_ACCESSKEY"], env["CAIRN_AUTH_SECRETKEY"])
        code, _ = http_get(base + monitor["path"])
        report.check(f"the ServiceMonitor's {monitor['path']} refuses an anonymous scrape", code == 403,
                     f"status {code}")
        report.check("the ServiceMonitor carries Basic credentials for it", "basicAuth" in monitor, str(monitor))
        code, body = http_get(base + monitor["path"], auth=admin)
        report.check(f"the ServiceMonitor's {monitor['path']} serves Cairn's metrics to a key allowed to read them",
                     code == 200 and "cairn_" in body, f"status {code}")
        health = [w.replace("/9000", f"/{port}") for w in dockerfile.healthcheck_command(runtime)]
        report.check("the image's HEALTHCHECK command passes against the service",
                     subprocess.run(health, capture_output=True, timeout=60).returncode == 0, str(health))

        check_settings_bound(report, base, rendered_config, container, awaiting_file, admin)
        check_s3(report, base, rendered_config, env)

        data_dir = Path(local(rendered_config["cairn"]["data-dir"]))
        report.check("the engine writes on the fast tier's volume", (data_dir / "engine").is_dir(),
                     f"{data_dir} holds {os.listdir(data_dir)}")
        created = set(os.listdir(workdir)) - before
        writable = {Path(p).name for p in mounts if Path(p).parent == Path(runtime.last("WORKDIR") or "/")}
        report.check("nothing is written outside the mounted volumes (read-only root file system)",
                     created <= writable, f"created in the working directory: {sorted(created - writable)}")
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=120)  # graceful shutdown runs late on a loaded machine
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None:
            report.check("the service stops cleanly on SIGTERM (graceful shutdown)", process.returncode in (0, 143),
                         f"exit {process.returncode}")
        shutil.rmtree(tmp, ignore_errors=True)


def check_settings_bound(report, base, rendered_config, container, awaiting_file, admin):
    """Every cairn.* setting the chart renders is bound by the service, to the rendered value."""
    code, body = http_get(base + "/actuator/configprops", timeout=30, auth=admin)
    if not report.check("the actuator lists the bound settings", code == 200, f"status {code}"):
        return
    beans = [b for ctx in json.loads(body)["contexts"].values() for b in ctx["beans"].values()
             if b["prefix"] == "cairn"]
    inputs = beans[0]["inputs"]
    awaiting = {line.split("#")[0].strip() for line in Path(awaiting_file).read_text().splitlines()
                if line.split("#")[0].strip()}
    for path, value in leaves(rendered_config["cairn"]):
        key = "cairn." + ".".join(path)
        bound = bound_input(inputs, path)
        if key in awaiting:
            report.check(f"{key}: still awaiting the service (helm/test/awaiting-service.txt)", bound is None,
                         "the service binds it now: remove it from helm/test/awaiting-service.txt")
            continue
        if isinstance(value, str) and value.startswith("/"):
            # Paths are remapped under this run's temporary root.
            ok = bound is not None and str(bound["value"]).endswith(value)
        elif isinstance(value, list):
            ok = isinstance(bound, list) and [str(b["value"]) for b in bound] == [str(v) for v in value]
        else:
            ok = bound is not None and str(bound["value"]) == str(value)
        report.check(f"{key}: bound by the service as rendered ({value})", ok, f"bound: {bound}")
    for var in container["env"]:
        if var["name"].startswith("CAIRN_"):
            bound = [leaf for leaf in leaves(inputs)
                     if leaf[0][-1] == "origin" and f'"{var["name"]}"' in str(leaf[1])]
            report.check(f"environment {var['name']} binds a cairn.* setting", bool(bound), "not bound")


def check_s3(report, base, rendered_config, env):
    s3 = boto3.client("s3", endpoint_url=base, region_name=rendered_config["cairn"]["region"],
                      aws_access_key_id=env["CAIRN_AUTH_ACCESSKEY"],
                      aws_secret_access_key=env["CAIRN_AUTH_SECRETKEY"],
                      config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
    body = os.urandom(20000)
    try:
        s3.create_bucket(Bucket="helm-chart")
        s3.put_object(Bucket="helm-chart", Key="images/cat.jpg", Body=body, ContentType="image/jpeg")
        got = s3.get_object(Bucket="helm-chart", Key="images/cat.jpg")
        read = got["Body"].read()
        listed = [o["Key"] for o in s3.list_objects_v2(Bucket="helm-chart").get("Contents", [])]
        report.check("S3 with the chart's generated credentials: create bucket, put, get, list",
                     read == body and got["ContentType"] == "image/jpeg" and listed == ["images/cat.jpg"],
                     f"read {len(read)} bytes, listed {listed}")
    except Exception as e:
        report.error("S3 with the chart's generated credentials", e)
    wrong = boto3.client("s3", endpoint_url=base, region_name=rendered_config["cairn"]["region"],
                         aws_access_key_id=env["CAIRN_AUTH_ACCESSKEY"], aws_secret_access_key="wrong",
                         config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
    try:
        wrong.list_buckets()
        report.check("a wrong secret key is refused", False, "ListBuckets succeeded")
    except wrong.exceptions.ClientError as e:
        report.check("a wrong secret key is refused (SignatureDoesNotMatch)",
                     e.response["Error"]["Code"] == "SignatureDoesNotMatch", str(e))
