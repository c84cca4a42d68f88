"""A rendered pod's container as a sandbox.Container: the image's entrypoint, working directory,
user and environment (from the Dockerfile), the container's command, arguments and environment
exactly as rendered, its volumes as host directories (volume claims and emptyDirs empty and owned
by the pod's fsGroup, ConfigMaps and Secrets written out read-only), and its memory limit as the
JVM's (what a container's cgroup would tell the JVM, here -XX:MaxRAM in JDK_JAVA_OPTIONS, which
the `java` launcher reads besides the rendered JAVA_TOOL_OPTIONS).
"""
import base64
import os
import re
import secrets
import string
import subprocess
from pathlib import Path

import dockerfile
from chart import find
from sandbox import Container

# The base image's PATH, which the Dockerfile's `ENV PATH=/opt/cairn/bin:$PATH` extends.
BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
QUANTITY = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(m|k|Ki|Mi|Gi|Ti|Pi|Ei|M|G|T|P|E)?$")
FACTORS = {None: 1, "m": 0.001, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18,
           "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}


def quantity_bytes(text):
    m = QUANTITY.match(str(text))
    if not m:
        raise ValueError(f"not a Kubernetes quantity: {text!r}")
    return int(float(m.group(1)) * FACTORS[m.group(2)])


class Cluster:
    """What the cluster would hold besides the rendered objects: the operator's Secrets (made up
    here, by what the values say they hold) and the volumes, as directories below `tmp`."""

    def __init__(self, docs, values, tmp, service_host):
        self.docs, self.values, self.tmp, self.service_host = docs, values, Path(tmp), service_host
        self.made = {}

    def secret(self, name, key):
        rendered = [d for d in self.docs if d["kind"] == "Secret" and d["metadata"]["name"] == name]
        if rendered:
            data = rendered[0].get("data", {})
            if key in data:
                return base64.b64decode(data[key])
            return rendered[0]["stringData"][key].encode()
        if (name, key) not in self.made:
            self._make(name)
        return self.made[(name, key)]

    def _make(self, name):
        v = self.values
        if name == v["tls"]["existingSecret"]:
            pem = self.certificates()
            self.made.update({(name, v["tls"]["certificateKey"]): pem["tls.crt"],
                              (name, v["tls"]["privateKeyKey"]): pem["tls.key"]})
            if v["tls"]["caKey"]:
                self.made[(name, v["tls"]["caKey"])] = pem["ca.crt"]
        elif name == v["auth"]["existingSecret"]:
            access, secret = key_pair()
            keys = v["auth"]["existingSecretKeys"]
            self.made.update({(name, keys["accessKey"]): access.encode(), (name, keys["secretKey"]): secret.encode()})
        elif name == v["auth"]["credentialsFile"]["existingSecret"]:
            self.made[(name, v["auth"]["credentialsFile"]["key"])] = ("%s=%s\n" % key_pair()).encode()
        elif v["mode"] == "cassandra" and name == v["cassandra"]["auth"]["existingSecret"]:
            keys = v["cassandra"]["auth"]["existingSecretKeys"]
            self.made.update({(name, keys["username"]): b"cairn", (name, keys["password"]): key_pair()[1].encode()})
        elif v["backup"]["enabled"] and name == v["backup"]["target"]["s3"]["existingSecret"]:
            # The test's S3 target is the service itself, so the target's keys are the service's.
            keys = v["backup"]["target"]["s3"]["existingSecretKeys"]
            access, secret = self.service_keys()
            self.made.update({(name, keys["accessKey"]): access, (name, keys["secretKey"]): secret})
        else:
            raise LookupError(f"the test has no stand-in for Secret {name}")

    def service_keys(self):
        """The access key pair the service's container is given (CAIRN_AUTH_*), as bytes."""
        workload = [d for d in self.docs if d["kind"] in ("StatefulSet", "Deployment")][0]
        env = {e["name"]: e for e in workload["spec"]["template"]["spec"]["containers"][0]["env"]}
        refs = [env[n]["valueFrom"]["secretKeyRef"] for n in ("CAIRN_AUTH_ACCESSKEY", "CAIRN_AUTH_SECRETKEY")]
        return tuple(self.secret(r["name"], r["key"]) for r in refs)

    def certificates(self):
        """A CA and a certificate it signed for the Service's names (what cert-manager would write)."""
        out = self.tmp / "pki"
        if not (out / "tls.crt").exists():
            out.mkdir(parents=True, exist_ok=True)
            host = self.service_host
            run = lambda *a: subprocess.run(["openssl", *a], cwd=out, check=True, capture_output=True)
            run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
                "-days", "2", "-subj", "/CN=cairn test CA")
            run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "tls.key", "-out", "tls.csr", "-subj", f"/CN={host}")
            (out / "san.ext").write_text(f"subjectAltName=DNS:{host},DNS:{host.split('.')[0]},DNS:localhost,IP:127.0.0.1\n")
            run("x509", "-req", "-in", "tls.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "tls.crt", "-days", "2", "-extfile", "san.ext")
        return {f: (out / f).read_bytes() for f in ("ca.crt", "tls.crt", "tls.key")}

    def volume_dir(self, kind, name):
        path = self.tmp / kind / name
        if not path.exists():
            path.mkdir(parents=True)
            fs_group = self.values["podSecurityContext"].get("fsGroup")
            if fs_group is not None:  # what Kubernetes does to a volume of a pod with an fsGroup
                os.chown(path, 0, int(fs_group))
                os.chmod(path, 0o2775)
        return path


def key_pair():
    access = "CAIRN" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(15))
    secret = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(40))
    return access, secret


def container(cluster, pod_name, pod, claim_templates, runtime, jars, launcher, hosts, root_dir):
    """The Container for the first container of a rendered pod spec (`claim_templates`: the
    StatefulSet's volumeClaimTemplates, named for the pod; `jars`: the image's files by path)."""
    spec = pod["containers"][0]
    security = pod.get("securityContext", {})
    fs_group = security.get("fsGroup")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {}
    for m in spec.get("volumeMounts", []):
        if m["name"] in claim_templates:
            host, read_only = cluster.volume_dir("claims", f"{m['name']}-{pod_name.rsplit('-', 1)[0]}-0"), False
        else:
            host, read_only = volume(cluster, pod_name, volumes[m["name"]], fs_group)
        mounts[m["mountPath"]] = (host, read_only or m.get("readOnly", False))

    image_env = dockerfile.env(runtime)
    user = (runtime.last("USER") or "0:0").split(":")
    workdir = runtime.last("WORKDIR") or "/"
    env = {"PATH": image_env.get("PATH", BASE_PATH).replace("$PATH", BASE_PATH),
           "HOME": workdir, "HOSTNAME": pod_name}
    env.update({k: v for k, v in image_env.items() if k != "PATH"})
    for var in spec.get("env", []):
        if "value" in var:
            env[var["name"]] = expand(var["value"], env)
        else:
            ref = var["valueFrom"]["secretKeyRef"]
            env[var["name"]] = cluster.secret(ref["name"], ref["key"]).decode()
    limit = spec.get("resources", {}).get("limits", {}).get("memory")
    if limit is not None:
        env["JDK_JAVA_OPTIONS"] = f"-XX:MaxRAM={quantity_bytes(limit)}"

    command = spec.get("command") or dockerfile.exec_form(runtime.last("ENTRYPOINT"))
    argv = command + [expand(a, env) for a in spec.get("args", [])]
    uid = security.get("runAsUser", user[0])
    gid = security.get("runAsGroup", user[1] if len(user) > 1 else 0)
    files = dict(jars)
    files["/opt/cairn/bin/cairn-backup"] = launcher
    return Container(root_dir, argv, env, workdir, uid, gid, [fs_group] if fs_group is not None else [],
                     mounts, files, hosts=hosts, passwd_line=f"cairn:x:{user[0]}:{user[1]}::{workdir}:/usr/sbin/nologin")


def volume(cluster, pod_name, v, fs_group):
    """(host directory, read-only) for a pod volume."""
    if "persistentVolumeClaim" in v:
        pvc = v["persistentVolumeClaim"]
        return cluster.volume_dir("claims", pvc["claimName"]), pvc.get("readOnly", False)
    if "emptyDir" in v or "ephemeral" in v:
        return cluster.volume_dir(f"pods/{pod_name}", v["name"]), False
    path = cluster.tmp / "pods" / pod_name / v["name"]
    path.mkdir(parents=True, exist_ok=True)
    if "configMap" in v:
        data = find(cluster.docs, "ConfigMap", v["configMap"]["name"])["data"]
        files = {i["path"]: data[i["key"]].encode() for i in v["configMap"].get("items", [])} or \
                {k: d.encode() for k, d in data.items()}
        mode = v["configMap"].get("defaultMode", 0o644)
    elif "secret" in v:
        name = v["secret"]["secretName"]
        files = {i["path"]: cluster.secret(name, i["key"]) for i in v["secret"]["items"]}
        mode = v["secret"].get("defaultMode", 0o644)
    else:
        raise LookupError(f"volume {v['name']}: kind not known to the test")
    for rel, content in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_bytes(content)
        os.chmod(path / rel, mode)
        if fs_group is not None:
            os.chown(path / rel, 0, int(fs_group))
    return path, True


def expand(text, env):
    """Kubernetes' $(VAR) expansion of arguments and values."""
    return re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), text)
