"""Runs helm on the chart and reads what it renders."""
import base64
import subprocess
import yaml


class Chart:
    def __init__(self, helm, chart_dir, kube_version):
        self.helm = helm
        self.dir = chart_dir
        self.kube_version = kube_version

    def run(self, *args):
        return subprocess.run([self.helm, *args], capture_output=True, text=True)

    def template(self, values_files=(), release="r", namespace="cairn-test", kube_version=None, sets=()):
        args = ["template", release, str(self.dir), "--namespace", namespace,
                "--kube-version", kube_version or self.kube_version]
        for f in values_files:
            args += ["-f", str(f)]
        for s in sets:
            args += ["--set", s]
        return self.run(*args)

    def render(self, values_files=(), **kw):
        """The rendered documents; raises with helm's message when rendering fails."""
        result = self.template(values_files, **kw)
        if result.returncode != 0:
            raise RuntimeError(result.stderr.strip())
        return [d for d in yaml.safe_load_all(result.stdout) if d]


def find(docs, kind, name=None):
    found = [d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)]
    if len(found) != 1:
        raise LookupError(f"expected one {kind} {name or ''}, rendered {len(found)}")
    return found[0]


def secret_value(docs, name, key):
    secret = find(docs, "Secret", name)
    return base64.b64decode(secret["data"][key]).decode()
