#!/usr/bin/env python3
"""Throughput and p99 of the web connector against its baselines, one wrk run each, 20 KB
objects: nginx + module vs nginx proxy_pass vs nginx static files; Apache + mod_cairn vs
mod_proxy; nginx proxy_cache on /_cas/ (configured as docs/web-connector.md advises) vs nginx
static, with and without open_file_cache. Prints a table and one JSON line.

usage: compare.py [--seconds 5] [--connections 32] [--objects 100] [--rounds 3] [--baseline-modules DIR]

--baseline-modules DIR runs a second nginx and a second Apache with the modules built in DIR (an
older checkout's web-connector/build) in the same interleaved rounds: the module rows measured
twice, before and after a change, under the same load.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types

import boto3
from botocore.config import Config

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
import servers  # noqa: E402
from servers import ACCESS_KEY, SECRET_KEY  # noqa: E402
import run as tests  # noqa: E402

SIZE = 20 * 1024


def nginx_conf(d, port, cairn_port, static_dir, creds, build=servers.BUILD):
    return f"""load_module {build}/ngx_http_cairn_module.so;
daemon off; worker_processes 1; error_log {d}/error.log warn; pid {d}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
  access_log off; keepalive_requests 1000000;
  client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi; uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;
  proxy_cache_path {d}/cache levels=1:2 keys_zone=cas:10m max_size=200m inactive=1h use_temp_path=off;
  upstream cairn {{ server 127.0.0.1:{cairn_port}; keepalive 64; keepalive_requests 1000000; keepalive_timeout 300s; }}
  server {{
    listen 127.0.0.1:{port};
    location /m/ {{ cairn_pass cairn; cairn_bucket priv; cairn_credentials {creds}; }}
    location /mp/ {{ cairn_pass cairn; cairn_bucket pub; }}
    location /pp/ {{ proxy_pass http://cairn/pub/; proxy_http_version 1.1; proxy_set_header Connection ""; }}
    location /priv/ {{ proxy_pass http://cairn; proxy_http_version 1.1; proxy_set_header Connection "";
                      proxy_set_header Host 127.0.0.1:{cairn_port}; }}
    location /static/ {{ alias {static_dir}/; }}
    location /ostatic/ {{ alias {static_dir}/; open_file_cache max=1000; }}
    location /_cas/ {{ cairn_pass cairn; cairn_cas on; cairn_credentials {creds}; open_file_cache max=1000;
                      proxy_cache cas; proxy_cache_valid 200 1h; proxy_cache_lock on; }}
    location /pcas/ {{ proxy_pass http://cairn/_cas/; proxy_http_version 1.1; proxy_set_header Connection "";
                      proxy_cache cas; proxy_cache_valid 200 1h; proxy_cache_lock on; }}
  }}
}}
"""


def start_web_server(name, directory, pid_name, procs, setup):
    """Starts nginx or httpd on a port of its own (servers.start_on_free_port); setup(port) gives
    the configuration, its file name and the command. Every process started joins procs."""
    server = types.SimpleNamespace(name=name, port=None, proc=None, pid_file=os.path.join(directory, pid_name),
                                   logs=lambda: [os.path.join(directory, "stdout.log"),
                                                 os.path.join(directory, "error.log")])

    def launch():
        conf, conf_name, cmd = setup(server.port)
        with open(os.path.join(directory, conf_name), "w") as f:
            f.write(conf)
        for log in server.logs():
            open(log, "w").close()
        out = open(os.path.join(directory, "stdout.log"), "w")
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(proc)
        return proc

    servers.start_on_free_port(server, launch)
    return server


def apache_conf(d, port, cairn_port, creds, build=servers.BUILD):
    m = servers.Apache.MODULES
    return f"""ServerRoot {d}
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile {d}/httpd.pid
DefaultRuntimeDir {d}
ErrorLog {d}/error.log
LogLevel warn
Mutex file:{d} default
MaxKeepAliveRequests 0
User www-data
Group www-data
LoadModule mpm_event_module {m}/mod_mpm_event.so
LoadModule authz_core_module {m}/mod_authz_core.so
LoadModule proxy_module {m}/mod_proxy.so
LoadModule proxy_http_module {m}/mod_proxy_http.so
LoadModule cairn_module {build}/mod_cairn.so
<Location "/">
  Require all granted
</Location>
ProxyPass "/pp/" "http://127.0.0.1:{cairn_port}/pub/"
<Location "/m/">
  CairnPass http://127.0.0.1:{cairn_port}
  CairnBucket priv
  CairnCredentials {creds}
</Location>
<Location "/mp/">
  CairnPass http://127.0.0.1:{cairn_port}
  CairnBucket pub
</Location>
"""


def wrk(port, paths, seconds, connections, workdir, name):
    script = os.path.join(workdir, f"{name}.lua")
    with open(script, "w") as f:
        f.write("paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n"
                "i = 0\nrequest = function()\n  i = i % #paths + 1\n"
                "  return wrk.format(\"GET\", paths[i])\nend\n")
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency",
                          "-s", script, f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": round(rps, 1), "p99_ms": round(p99_ms, 3), "requests": requests,
            "non_2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else ""}


def gc_pauses(log, offset):
    """Cairn's GC pauses logged after byte offset: (count, total ms, longest ms, new offset)."""
    with open(log, "rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
        end = f.tell()
    pauses = [float(m) for m in re.findall(r"Pause.* ([\d.]+)ms$", text, re.M)]
    return len(pauses), sum(pauses), max(pauses, default=0.0), end


def cpu_seconds(group):
    """User + system CPU time of every process in a process group (the web server's)."""
    total = 0
    for pid in subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True).stdout.split():
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def closed_backend_connections(cairn_port):
    """Connections to Cairn in TIME_WAIT: near 0 when the web server keeps its pool alive."""
    out = subprocess.run(["ss", "-tanH", "state", "time-wait", f"( dport = :{cairn_port} )"],
                         capture_output=True, text=True).stdout
    return len(out.splitlines())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--objects", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported")
    parser.add_argument("--baseline-modules", metavar="DIR",
                        help="also run the module rows with the modules built in DIR, in the same rounds")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="cairn-connector-bench-")
    os.chmod(workdir, 0o755)
    cairn = servers.Cairn(workdir)
    procs = []
    try:
        gc_log = os.path.join(workdir, "gc.log")
        cairn.start(jvm_options=[f"-Xlog:gc:file={gc_log}"])
        s3 = tests.s3_client(cairn.port)
        s3.create_bucket(Bucket="priv")
        s3.create_bucket(Bucket="pub", ACL="public-read")
        static_dir = os.path.join(workdir, "static")
        os.makedirs(static_dir)
        names, hashes = [], []
        for i in range(args.objects):
            body = hashlib.sha256(str(i).encode()).digest() * (SIZE // 32)
            name = f"img/{i:04d}.jpg"
            for bucket in ("priv", "pub"):
                s3.put_object(Bucket=bucket, Key=name, Body=body)
            os.makedirs(os.path.join(static_dir, "img"), exist_ok=True)
            with open(os.path.join(static_dir, name), "wb") as f:
                f.write(body)
            names.append(name)
            hashes.append(hashlib.sha256(body).hexdigest())
        os.chmod(static_dir, 0o755)
        creds = os.path.join(workdir, "credentials")
        servers.write_credentials(creds, ACCESS_KEY, SECRET_KEY)
        os.chmod(creds, 0o644)

        def start_nginx(name, build):
            ndir = os.path.join(workdir, name)
            os.makedirs(ndir)
            server = start_web_server(name, ndir, "nginx.pid", procs, lambda port: (
                nginx_conf(ndir, port, cairn.port, static_dir, creds, build), "nginx.conf",
                ["nginx", "-p", ndir, "-c", os.path.join(ndir, "nginx.conf")]))
            return server.port, server.proc

        def start_apache(name, build):
            adir = os.path.join(workdir, name)
            os.makedirs(adir)
            os.chmod(adir, 0o777)
            server = start_web_server(name, adir, "httpd.pid", procs, lambda port: (
                apache_conf(adir, port, cairn.port, creds, build), "httpd.conf",
                ["apache2", "-f", os.path.join(adir, "httpd.conf"), "-DFOREGROUND"]))
            return server.port, server.proc

        nport, nginx = start_nginx("nginx", servers.BUILD)
        aport, apache = start_apache("apache", servers.BUILD)

        def paths(prefix):
            return [prefix + n for n in names]
        # Presigned URLs sent through plain proxy_pass: Cairn verifies a signature, nginx signs nothing.
        endpoint = f"http://127.0.0.1:{cairn.port}"
        presigner = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=ACCESS_KEY,
                                 aws_secret_access_key=SECRET_KEY, region_name="us-east-1",
                                 config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
        presigned_paths = [presigner.generate_presigned_url("get_object", Params={"Bucket": "priv", "Key": n},
                                                     ExpiresIn=3600)[len(endpoint):] for n in names]
        cas_paths = ["/_cas/" + h for h in hashes]
        plain_cas_paths = ["/pcas/" + h for h in hashes]
        for p in cas_paths + plain_cas_paths:  # fill nginx's cache
            tests.request(nport, "GET", p)
        runs = [
            ("nginx module, signed (private bucket)", nport, paths("/m/"), nginx),
            ("nginx module, unsigned (public bucket)", nport, paths("/mp/"), nginx),
            ("nginx proxy_pass (public bucket)", nport, paths("/pp/"), nginx),
            ("nginx proxy_pass, presigned (private bucket)", nport, presigned_paths, nginx),
            ("nginx static files", nport, paths("/static/"), nginx),
            ("nginx static files, open_file_cache", nport, paths("/ostatic/"), nginx),
            ("nginx proxy_cache on /_cas/", nport, cas_paths, nginx),
            ("nginx proxy_cache, proxy_pass without module", nport, plain_cas_paths, nginx),
            ("apache mod_cairn, signed (private bucket)", aport, paths("/m/"), apache),
            ("apache mod_cairn, unsigned (public bucket)", aport, paths("/mp/"), apache),
            ("apache mod_proxy (public bucket)", aport, paths("/pp/"), apache),
        ]
        if args.baseline_modules:
            base = os.path.abspath(args.baseline_modules)
            bnport, bnginx = start_nginx("nginx-baseline", base)
            baport, bapache = start_apache("apache-baseline", base)
            runs += [
                ("nginx module, signed [baseline modules]", bnport, paths("/m/"), bnginx),
                ("nginx module, unsigned [baseline modules]", bnport, paths("/mp/"), bnginx),
                ("apache mod_cairn, signed [baseline modules]", baport, paths("/m/"), bapache),
                ("apache mod_cairn, unsigned [baseline modules]", baport, paths("/mp/"), bapache),
            ]
        # The JVM's warm-up through every path that reaches Cairn, not reported: with a shorter one
        # the first round's tails measured C2 compiling, not the connectors.
        for name, port, ps, _ in runs:
            if "static" not in name and "proxy_cache" not in name:
                wrk(port, ps, args.seconds, args.connections, workdir, "warmup")
        # Rounds interleave the configurations so that a burst of load from elsewhere on the
        # machine hits them alike, and each round starts one configuration later so that none
        # always follows the same neighbour (whose garbage it would collect); each figure is the
        # median of its rounds.
        samples = {name: [] for name, _, _, _ in runs}
        for round_index in range(args.rounds):
            shift = round_index % len(runs)
            for name, port, ps, server in runs[shift:] + runs[:shift]:
                closed_before = closed_backend_connections(cairn.port)
                cpu_before = cpu_seconds(server.pid)
                _, _, _, gc_offset = gc_pauses(gc_log, 0)
                sample = wrk(port, ps, args.seconds, args.connections, workdir, re.sub(r"\W+", "_", name))
                count, total_ms, longest_ms, _ = gc_pauses(gc_log, gc_offset)
                sample.update(gc_pauses=count, gc_pause_ms=round(total_ms, 1), gc_longest_ms=round(longest_ms, 1))
                sample["server_cpu_us_per_request"] = (cpu_seconds(server.pid) - cpu_before) * 1e6 / sample["requests"]
                sample["backend_conns_closed"] = max(0, closed_backend_connections(cairn.port) - closed_before)
                samples[name].append(sample)
        results = {}
        for name, runs_of_name in samples.items():
            results[name] = {
                "rps": statistics.median(x["rps"] for x in runs_of_name),
                "p99_ms": statistics.median(x["p99_ms"] for x in runs_of_name),
                "non_2xx": sum(x["non_2xx"] for x in runs_of_name),
                "server_cpu_us_per_request": round(statistics.median(
                    x["server_cpu_us_per_request"] for x in runs_of_name), 1),
                "backend_conns_closed": max(x["backend_conns_closed"] for x in runs_of_name),
                "socket_errors": "; ".join(x["socket_errors"] for x in runs_of_name if x["socket_errors"]),
                "rounds_rps": [x["rps"] for x in runs_of_name],
                "rounds_p99_ms": [x["p99_ms"] for x in runs_of_name],
                "gc_pauses_per_s": round(statistics.median(x["gc_pauses"] for x in runs_of_name) / args.seconds, 1),
                "gc_longest_ms": max(x["gc_longest_ms"] for x in runs_of_name),
            }
        r = results
        ratios = {
            "nginx_module_signed_vs_proxy_pass_rps": r["nginx module, signed (private bucket)"]["rps"]
            / r["nginx proxy_pass (public bucket)"]["rps"],
            "nginx_module_signed_vs_proxy_pass_p99": r["nginx module, signed (private bucket)"]["p99_ms"]
            / r["nginx proxy_pass (public bucket)"]["p99_ms"],
            "nginx_module_signed_vs_presigned_proxy_pass_rps": r["nginx module, signed (private bucket)"]["rps"]
            / r["nginx proxy_pass, presigned (private bucket)"]["rps"],
            "nginx_module_signed_vs_presigned_proxy_pass_p99": r["nginx module, signed (private bucket)"]["p99_ms"]
            / r["nginx proxy_pass, presigned (private bucket)"]["p99_ms"],
            "nginx_module_unsigned_vs_proxy_pass_rps": r["nginx module, unsigned (public bucket)"]["rps"]
            / r["nginx proxy_pass (public bucket)"]["rps"],
            "nginx_module_unsigned_vs_proxy_pass_p99": r["nginx module, unsigned (public bucket)"]["p99_ms"]
            / r["nginx proxy_pass (public bucket)"]["p99_ms"],
            "apache_mod_cairn_unsigned_vs_mod_proxy_rps": r["apache mod_cairn, unsigned (public bucket)"]["rps"]
            / r["apache mod_proxy (public bucket)"]["rps"],
            "apache_mod_cairn_unsigned_vs_mod_proxy_p99": r["apache mod_cairn, unsigned (public bucket)"]["p99_ms"]
            / r["apache mod_proxy (public bucket)"]["p99_ms"],
            "apache_mod_cairn_vs_mod_proxy_rps": r["apache mod_cairn, signed (private bucket)"]["rps"]
            / r["apache mod_proxy (public bucket)"]["rps"],
            "apache_mod_cairn_vs_mod_proxy_p99": r["apache mod_cairn, signed (private bucket)"]["p99_ms"]
            / r["apache mod_proxy (public bucket)"]["p99_ms"],
            "nginx_module_signed_vs_proxy_pass_cpu": r["nginx module, signed (private bucket)"]["server_cpu_us_per_request"]
            / r["nginx proxy_pass (public bucket)"]["server_cpu_us_per_request"],
            "apache_mod_cairn_vs_mod_proxy_cpu": r["apache mod_cairn, signed (private bucket)"]["server_cpu_us_per_request"]
            / r["apache mod_proxy (public bucket)"]["server_cpu_us_per_request"],
            "nginx_module_unsigned_vs_proxy_pass_cpu": r["nginx module, unsigned (public bucket)"]["server_cpu_us_per_request"]
            / r["nginx proxy_pass (public bucket)"]["server_cpu_us_per_request"],
            "apache_mod_cairn_unsigned_vs_mod_proxy_cpu":
            r["apache mod_cairn, unsigned (public bucket)"]["server_cpu_us_per_request"]
            / r["apache mod_proxy (public bucket)"]["server_cpu_us_per_request"],
            "nginx_module_signed_vs_presigned_proxy_pass_cpu":
            r["nginx module, signed (private bucket)"]["server_cpu_us_per_request"]
            / r["nginx proxy_pass, presigned (private bucket)"]["server_cpu_us_per_request"],
            "nginx_cas_cache_module_vs_plain_cache_cpu": r["nginx proxy_cache on /_cas/"]["server_cpu_us_per_request"]
            / r["nginx proxy_cache, proxy_pass without module"]["server_cpu_us_per_request"],
            "nginx_cas_cache_vs_static_cpu": r["nginx static files"]["server_cpu_us_per_request"]
            / r["nginx proxy_cache on /_cas/"]["server_cpu_us_per_request"],
            "nginx_cas_cache_vs_static_rps": r["nginx proxy_cache on /_cas/"]["rps"] / r["nginx static files"]["rps"],
            "nginx_cas_cache_vs_static_open_file_cache_rps": r["nginx proxy_cache on /_cas/"]["rps"]
            / r["nginx static files, open_file_cache"]["rps"],
        }
        if args.baseline_modules:
            for name in ("nginx module, signed", "nginx module, unsigned", "apache mod_cairn, signed",
                         "apache mod_cairn, unsigned"):
                now = next(v for k, v in r.items() if k.startswith(name + " ("))
                before = r[name + " [baseline modules]"]
                key = re.sub(r"\W+", "_", name)
                ratios[key + "_vs_baseline_modules_cpu"] = (now["server_cpu_us_per_request"]
                                                            / before["server_cpu_us_per_request"])
                ratios[key + "_vs_baseline_modules_rps"] = now["rps"] / before["rps"]
        ratios = {k: round(v, 3) for k, v in ratios.items()}
        print(f"\n{'run':50s} {'req/s':>10s} {'p99 ms':>9s} {'cpu us/req':>10s} {'non-2xx':>8s} {'conns closed':>12s}"
              f" {'GCs/s':>6s} {'max GC ms':>9s}")
        for name, res in results.items():
            print(f"{name:50s} {res['rps']:10.1f} {res['p99_ms']:9.2f} {res['server_cpu_us_per_request']:10.1f} "
                  f"{res['non_2xx']:8d} {res['backend_conns_closed']:12d} {res['gc_pauses_per_s']:6.1f} "
                  f"{res['gc_longest_ms']:9.1f} {res['socket_errors']}")
        print()
        for k, v in ratios.items():
            print(f"{k:52s} {v:6.3f}")
        print(json.dumps({"bench": "web-connector", "object_bytes": SIZE, "objects": args.objects,
                          "seconds": args.seconds, "connections": args.connections, "rounds": args.rounds,
                          "baseline_modules": args.baseline_modules,
                          "runs": results, "ratios": ratios}))
        return 0
    finally:
        for p in procs:
            servers.stop_process(p, timeout=20)
        cairn.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
