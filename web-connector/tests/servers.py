"""The processes the integration tests start: Cairn, nginx and Apache httpd, each on a loopback
port with a generated configuration, each stopped by stop() (the runner always calls it).

A port picked free here and handed to a server can be taken by another process before the server
binds it (and a probe would then find that process listening). So Cairn binds port 0 itself and
prints the port it got; nginx and httpd cannot, so they are started on a free port, known to
listen once their pid file holds their pid, and started again on another port when they say
theirs was taken.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CONNECTOR = os.path.dirname(HERE)
BUILD = os.path.join(CONNECTOR, "build")
ROOT = os.path.dirname(CONNECTOR)

START_ATTEMPTS = 5
CAIRN_SERVING = re.compile(r"Cairn is serving S3 at https?://[^\s:]+:(\d+)")

ACCESS_KEY = "AKCONNECTORTEST"
SECRET_KEY = "connector/secret+KEY=1"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, what, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout}s")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def wait_for_pid_file(port, proc, pid_file, logs, what, timeout=120):
    """Waits until proc has written its pid to pid_file (it has bound its port by then) and the
    port accepts connections: True. False when proc exited saying its port was taken."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            if any("Address already in use" in read(log) for log in logs):
                return False
            raise RuntimeError(f"{what} exited with {proc.returncode} before listening")
        if read(pid_file).strip() == str(proc.pid):
            wait_for_port(port, proc, what, timeout=max(1, deadline - time.time()))
            return True
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout}s")


def start_on_free_port(server, launch):
    """Starts server (nginx or httpd) on a free port, and again on another while the port it was
    given turns out taken. launch() writes the configuration for server.port and returns the
    process; server.pid_file and server.logs() say when it listens or why it stopped."""
    for attempt in range(START_ATTEMPTS):
        server.port = free_port()
        try:
            os.remove(server.pid_file)
        except FileNotFoundError:
            pass
        server.proc = launch()
        if wait_for_pid_file(server.port, server.proc, server.pid_file, server.logs(), server.name):
            return
        server.proc.wait(10)
    raise RuntimeError(f"{server.name} found each of {START_ATTEMPTS} free ports taken")


def children(pid):
    """The ids of the processes whose parent is pid."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # exited meanwhile
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.add(int(entry))
    return found


def reload_and_wait(proc, what, timeout=120):
    """SIGHUP, then waits until every child of the last generation is gone and a new one runs:
    only then do all new connections meet the re-read configuration (a loaded machine, or
    valgrind, can take seconds)."""
    old = children(proc.pid)
    if not old:
        raise RuntimeError(f"{what} has no child processes to replace")
    os.kill(proc.pid, signal.SIGHUP)
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} while reloading")
        now = children(proc.pid)
        if now and not now & old:
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not replace its children within {timeout}s of SIGHUP")


def stop_process(proc, sig=signal.SIGTERM, timeout=20):
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def write_credentials(path, access, secret):
    with open(path, "w") as f:
        f.write(f"# credentials of the web tier\naccess_key = {access}\nsecret_key = {secret}\n")
    os.chmod(path, 0o600)


class SilentBackend:
    """A backend that accepts connections and never answers: what a web server meets when Cairn
    is too slow. Its connections stay open until stop()."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.conns = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.accept, daemon=True)

    def start(self):
        self.thread.start()

    def accept(self):
        self.sock.settimeout(0.2)
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue  # the timeout, or the socket closed by stop()
            self.conns.append(conn)

    def stop(self):
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(5)
        for conn in self.conns + [self.sock]:
            conn.close()


class Cairn:
    """The real service from service/target/cairn-service.jar."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.port = None  # the port it bound, once started
        self.proc = None

    def start(self, jvm_options=()):
        # CAIRN_JAR measures or tests another build of the service.
        jar = os.environ.get("CAIRN_JAR") or os.path.join(ROOT, "service", "target", "cairn-service.jar")
        if not os.path.exists(jar):
            raise RuntimeError(f"{jar} is missing: build it with ./mvnw -q -B -DskipTests package -pl service -am")
        java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java"
        args = [java, "-Xmx512m", *jvm_options, "-jar", jar,
                "--server.port=0", "--server.address=127.0.0.1",
                f"--cairn.data-dir={self.workdir}/cairn-data",
                f"--cairn.auth.access-key={ACCESS_KEY}", f"--cairn.auth.secret-key={SECRET_KEY}",
                # the injected clock of the date-change test runs up to a day ahead of this one
                "--cairn.auth.max-clock-skew=2d",
                "--cairn.engine.memtable-size=4MB", "--logging.level.dev.cairn.service.access=WARN"]
        log = os.path.join(self.workdir, "cairn.log")
        self.log = open(log, "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 120
        while time.time() < deadline:
            serving = CAIRN_SERVING.search(read(log))
            if serving:
                self.port = int(serving.group(1))
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"cairn exited with {self.proc.returncode} before listening; see {log}")
            time.sleep(0.1)
        raise RuntimeError(f"cairn did not listen within 120s; see {log}")

    def stop(self):
        stop_process(self.proc)


class Nginx:
    """Debian's nginx with the module; under valgrind (one process, no daemon) when asked."""

    name = "nginx"

    def __init__(self, workdir, cairn_port, locations, valgrind=False, module="ngx_http_cairn_module-test.so"):
        self.dir = os.path.join(workdir, "nginx")
        os.makedirs(self.dir, exist_ok=True)
        os.chmod(workdir, 0o755)  # the worker (not root) reaches the cache nginx makes below
        self.port = None  # chosen by start()
        self.pid_file = os.path.join(self.dir, "nginx.pid")
        self.cairn_port = cairn_port
        self.locations = locations
        self.valgrind = valgrind
        self.module = os.path.join(BUILD, module)
        self.proc = None
        self.valgrind_log = os.path.join(self.dir, "valgrind.%p.log")

    def config(self):
        blocks = []
        for loc in self.locations:
            lines = [f"cairn_pass {'127.0.0.1:' + str(loc['backend']) if loc.get('backend') else 'cairn'};"]
            if loc.get("read_timeout"):
                lines.append(f"proxy_read_timeout {loc['read_timeout']}s;")
            if loc.get("cas"):
                lines.append("cairn_cas on;")
            else:
                lines.append(f"cairn_bucket {loc['bucket']};")
            if loc.get("prefix"):
                lines.append(f"cairn_key_prefix {loc['prefix']};")
            if loc.get("credentials"):
                lines.append(f"cairn_credentials {loc['credentials']};")
            if loc.get("upload"):
                lines.append("cairn_upload on;")
                lines.append(f"cairn_upload_max_size {loc['upload']};")
                lines.append(f"client_max_body_size {loc['upload']};")
            if loc.get("mask"):
                lines.append("cairn_mask_403 on;")
            if loc.get("cache"):
                lines += ["proxy_cache cairn;", "proxy_cache_valid 200 1h;", "proxy_cache_lock on;",
                          "add_header X-Cache-Status $upstream_cache_status always;"]
            blocks.append(f"    location {loc['path']} {{ {' '.join(lines)} }}")
        # master and worker even under valgrind: HUP reloads need the master (valgrind follows forks)
        process = "daemon off; worker_processes 1;"
        d = self.dir
        return f"""load_module {self.module};
{process}
error_log {d}/error.log info;
pid {self.pid_file};
env CAIRN_TEST_CLOCK_FILE;
events {{ worker_connections 512; }}
http {{
  access_log {d}/access.log;
  client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi; uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;
  proxy_connect_timeout 2s;
  proxy_cache_path {d}/cache levels=1:2 keys_zone=cairn:10m max_size=100m inactive=1h use_temp_path=off;
  upstream cairn {{ server 127.0.0.1:{self.cairn_port}; keepalive 16; }}
  server {{
    listen 127.0.0.1:{self.port};
{chr(10).join(blocks)}
  }}
}}
"""

    def logs(self):
        return [os.path.join(self.dir, "stdout.log"), os.path.join(self.dir, "error.log")]

    def start(self, env):
        start_on_free_port(self, lambda: self.launch(env))

    def launch(self, env):
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(self.config())
        cmd = ["nginx", "-p", self.dir, "-c", conf]
        if self.valgrind:
            cmd = ["valgrind", "--quiet", "--error-exitcode=99", "--track-origins=yes",
                   "--leak-check=full", "--errors-for-leak-kinds=definite", "--show-leak-kinds=definite",
                   f"--suppressions={os.path.join(HERE, 'nginx.supp')}",
                   f"--log-file={self.valgrind_log}"] + cmd
        for log in self.logs():
            open(log, "w").close()
        self.out = open(os.path.join(self.dir, "stdout.log"), "w")
        return subprocess.Popen(cmd, env=env, stdout=self.out, stderr=subprocess.STDOUT, start_new_session=True)

    def reload(self):
        """SIGHUP: nginx re-reads its configuration, and with it the credentials files."""
        reload_and_wait(self.proc, "nginx")

    def stop(self):
        """Stops nginx; returns the valgrind reports' problems ("" when clean or not under valgrind)."""
        stop_process(self.proc, signal.SIGQUIT, timeout=60)
        if not self.valgrind:
            return ""
        reports = []
        for name in sorted(os.listdir(self.dir)):
            if name.startswith("valgrind.") and name.endswith(".log"):
                with open(os.path.join(self.dir, name)) as f:
                    text = f.read()
                if text.strip():
                    reports.append(f"{name}:\n{text}")
        if not any(n.startswith("valgrind.") for n in os.listdir(self.dir)):
            reports.append("no valgrind report was written")
        return "\n".join(reports) + (f"\nexit status {self.proc.returncode}" if self.proc.returncode else "")


class Apache:
    """Debian's Apache httpd (event MPM, one child) with mod_cairn, and mod_mime with Debian's
    mime.conf as a default install enables them; the AddressSanitizer build of the module, with
    libasan preloaded, when asked."""

    name = "apache"
    MODULES = "/usr/lib/apache2/modules"

    def __init__(self, workdir, cairn_port, locations, asan=False, module=None):
        self.dir = os.path.join(workdir, "apache")
        os.makedirs(self.dir, exist_ok=True)
        os.chmod(workdir, 0o755)
        os.chmod(self.dir, 0o777)  # the children (www-data) write ASan reports here
        self.port = None  # chosen by start()
        self.pid_file = os.path.join(self.dir, "httpd.pid")
        self.cairn_port = cairn_port
        self.locations = locations
        self.asan = asan
        self.module = os.path.join(BUILD, module or ("mod_cairn-asan.so" if asan else "mod_cairn-test.so"))
        self.proc = None

    def config(self):
        blocks = []
        for loc in self.locations:
            if loc.get("cache"):
                continue  # nginx's proxy cache
            backend = f"http://127.0.0.1:{loc.get('backend') or self.cairn_port}"
            if loc.get("read_timeout"):
                blocks.append(f'<Proxy "{backend}">\n  ProxySet timeout={loc["read_timeout"]}\n</Proxy>')
            lines = [f"CairnPass {backend}"]
            if loc.get("cas"):
                lines.append("CairnCas On")
            else:
                lines.append(f"CairnBucket {loc['bucket']}")
            if loc.get("prefix"):
                lines.append(f"CairnKeyPrefix {loc['prefix']}")
            if loc.get("credentials"):
                lines.append(f"CairnCredentials {loc['credentials']}")
            if loc.get("upload"):
                size = int(loc["upload"].rstrip("k")) * 1024
                lines += ["CairnUpload On", f"CairnUploadMaxSize {size}"]
            if loc.get("mask"):
                lines.append("CairnMask403 On")
            blocks.append(f'<Location "{loc["path"]}">\n  ' + "\n  ".join(lines) + "\n</Location>")
        d, m = self.dir, self.MODULES
        return f"""ServerRoot {d}
ServerName 127.0.0.1
Listen 127.0.0.1:{self.port}
PidFile {self.pid_file}
DefaultRuntimeDir {d}
ErrorLog {d}/error.log
LogLevel warn
Mutex file:{d} default
LoadModule mpm_event_module {m}/mod_mpm_event.so
LoadModule authz_core_module {m}/mod_authz_core.so
LoadModule proxy_module {m}/mod_proxy.so
LoadModule proxy_http_module {m}/mod_proxy_http.so
LoadModule mime_module {m}/mod_mime.so
LoadModule cairn_module {self.module}
Include /etc/apache2/mods-available/mime.conf
StartServers 1
ServerLimit 1
MinSpareThreads 5
MaxSpareThreads 50
ThreadsPerChild 50
MaxRequestWorkers 50
ProxyTimeout 10
User www-data
Group www-data
<Location "/">
  Require all granted
</Location>
{chr(10).join(blocks)}
# the first is the default; the second, asked for by Host, has the setting Apache's own docs
# give for %2F in paths (a server-wide one)
<VirtualHost 127.0.0.1:{self.port}>
  ServerName 127.0.0.1
</VirtualHost>
<VirtualHost 127.0.0.1:{self.port}>
  ServerName nodecode.test
  AllowEncodedSlashes NoDecode
</VirtualHost>
"""

    def logs(self):
        return [os.path.join(self.dir, "stdout.log"), os.path.join(self.dir, "error.log")]

    def start(self, env):
        start_on_free_port(self, lambda: self.launch(env))

    def launch(self, env):
        conf = os.path.join(self.dir, "httpd.conf")
        with open(conf, "w") as f:
            f.write(self.config())
        env = dict(env)
        if self.asan:
            libasan = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
            env["LD_PRELOAD"] = libasan
            env["ASAN_OPTIONS"] = f"detect_leaks=0:log_path={self.dir}/asan"
        for log in self.logs():
            open(log, "w").close()
        self.out = open(os.path.join(self.dir, "stdout.log"), "w")
        return subprocess.Popen(["apache2", "-f", conf, "-DFOREGROUND"], env=env, stdout=self.out,
                                stderr=subprocess.STDOUT, start_new_session=True)

    def reload(self):
        """SIGHUP: httpd restarts its children and re-reads the configuration, credentials too."""
        reload_and_wait(self.proc, "apache")
        wait_for_port(self.port, self.proc, "apache")

    def stop(self):
        """Stops httpd; returns the AddressSanitizer reports ("" when clean or not under ASan)."""
        stop_process(self.proc, signal.SIGTERM, timeout=30)
        if not self.asan:
            return ""
        reports = []
        for name in sorted(os.listdir(self.dir)):
            if name.startswith("asan"):
                with open(os.path.join(self.dir, name)) as f:
                    reports.append(f"{name}:\n{f.read()}")
        return "\n".join(reports)
