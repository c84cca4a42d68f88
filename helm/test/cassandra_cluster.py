"""One small Cassandra cluster (bin/cassandra-cluster: one node in datacenter serving, one in
backup) and a Redis server, both inside a network namespace of their own, for every mode-cassandra
combination of the render-and-run test. The service's pods join that namespace: they reach the
nodes on their loopback addresses as a pod reaches its Cassandra, bind the rendered port as is,
and nothing collides with a cluster or a Redis another test runs on the host's loopback.
"""
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

FIRST = 21  # node 1 (serving) is 127.0.0.21, node 2 (backup) 127.0.0.22
CQL_PORT = 9042
REDIS_PORT = 6379


class TestCluster:
    def __init__(self, root):
        self.root = Path(root)
        self.dir = Path(tempfile.mkdtemp(prefix="cairn-helm-cassandra-"))
        self.env = dict(os.environ, CAIRN_CASSANDRA_DIR=str(self.dir / "cluster"), CAIRN_CASSANDRA_SERVING="1",
                        CAIRN_CASSANDRA_BACKUP="1", CAIRN_CASSANDRA_NET="127.0.0",
                        CAIRN_CASSANDRA_FIRST=str(FIRST), CAIRN_CASSANDRA_PORT=str(CQL_PORT),
                        CAIRN_CASSANDRA_HEAP=os.environ.get("CAIRN_HELM_CASSANDRA_HEAP", "384M"))
        self.network = None  # the process holding the namespace; containers join it (net_of)
        self.redis = None
        self.seconds = None
        self.why_not = None  # why it could not start

    @property
    def contact_point(self):
        return f"127.0.0.{FIRST}:{CQL_PORT}"

    @property
    def backup_contact_point(self):
        return f"127.0.0.{FIRST + 1}:{CQL_PORT}"

    @property
    def redis_address(self):
        return f"127.0.0.1:{REDIS_PORT}" if self.redis is not None else None

    def start(self):
        """Starts it; returns None, or why it could not start (the caller reports SKIP with it)."""
        self.why_not = self._start()
        return self.why_not

    def _start(self):
        began = time.monotonic()
        self.network = subprocess.Popen(["unshare", "--net", "sh", "-c", "ip link set lo up && exec sleep 86400"])
        if not wait_until(lambda: os.readlink(f"/proc/{self.network.pid}/ns/net") != os.readlink("/proc/self/ns/net")
                          and self.in_namespace(["ip", "-o", "link", "show", "up", "lo"]).stdout.strip(), 30):
            return "could not create the cluster's network namespace"
        if shutil.which("redis-server"):
            self.redis = subprocess.Popen(self.nsenter() + ["redis-server", "--bind", "127.0.0.1", "--port",
                                                             str(REDIS_PORT), "--save", "", "--appendonly", "no"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"--- starting a Cassandra cluster (datacenters serving and backup) in {self.dir}", flush=True)
        result = subprocess.run(self.nsenter() + [str(self.root / "bin/cassandra-cluster"), "start"], env=self.env,
                                capture_output=True, text=True, timeout=900)
        self.seconds = time.monotonic() - began
        if result.returncode != 0:
            return f"the Cassandra cluster did not start: {(result.stdout + result.stderr).strip()[-1500:]}"
        print(result.stdout.strip(), flush=True)
        print(f"--- the Cassandra cluster took {self.seconds:.0f} s to start", flush=True)
        return None

    def in_namespace(self, argv):
        return subprocess.run(self.nsenter() + argv, capture_output=True, text=True, timeout=30)

    def nsenter(self):
        return ["nsenter", f"--net=/proc/{self.network.pid}/ns/net"]

    def stop(self):
        try:
            subprocess.run([str(self.root / "bin/cassandra-cluster"), "stop"], env=self.env, capture_output=True,
                           timeout=300)
        finally:
            for process in (self.redis, self.network):
                if process is not None and process.poll() is None:
                    process.kill()
                    process.wait()
            shutil.rmtree(self.dir, ignore_errors=True)


def wait_until(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except OSError:
            pass
        time.sleep(0.1)
    return False
