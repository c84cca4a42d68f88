#!/usr/bin/env python3
"""Integration tests of the web connector: a real Cairn, Debian's nginx and Apache with the
modules, the table of cases.tsv, then the scenarios a table cannot hold (credentials reloaded,
the UTC date changing under an injected clock, the core's signatures against the service's
verifier, Cairn stopped). Prints "N passed, N failed"; exits non-zero on any failure.

usage: run.py [--servers nginx,apache] [--no-memcheck] [--keep]
"""
import argparse
import datetime
import email.utils
import hashlib
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

import boto3
from botocore.config import Config

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servers  # noqa: E402
from servers import ACCESS_KEY, SECRET_KEY  # noqa: E402

OBJECTS = {
    "a.txt": b"0123456789abcdefghij",
    "img/x.jpg": b"body of img/x.jpg",
    "empty.txt": b"",
}
for key in ["sp ace.txt", "plus+x", "100%", "br[1]", "ünï.txt", "dbl//slash", "dir/", "a=b&c", "why?", "~t:c",
            "sub/dir.txt", "doc.en"]:
    OBJECTS[key] = f"body of {key}".encode()

EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}")


def s3_client(port):
    return boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", aws_access_key_id=ACCESS_KEY,
                        aws_secret_access_key=SECRET_KEY, region_name="us-east-1",
                        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def load_data(s3):
    s3.create_bucket(Bucket="priv")
    s3.create_bucket(Bucket="pub", ACL="public-read")
    facts = {}
    for key, body in OBJECTS.items():
        s3.put_object(Bucket="priv", Key=key, Body=body)
        head = s3.head_object(Bucket="priv", Key=key)
        facts[key] = {"etag": head["ResponseMetadata"]["HTTPHeaders"]["etag"],
                      "lm": head["ResponseMetadata"]["HTTPHeaders"]["last-modified"],
                      "sha": hashlib.sha256(body).hexdigest()}
    s3.put_object(Bucket="pub", Key="p.txt", Body=b"public body")
    s3.put_bucket_cors(Bucket="priv", CORSConfiguration={"CORSRules": [
        {"AllowedOrigins": ["https://app.example"], "AllowedMethods": ["GET", "PUT"],
         "AllowedHeaders": ["content-type"], "ExposeHeaders": ["ETag"], "MaxAgeSeconds": 60}]})
    return facts


def locations(workdir, silent_port):
    good = os.path.join(workdir, "credentials")
    wrong = os.path.join(workdir, "credentials-wrong")
    rotating = os.path.join(workdir, "credentials-rotating")
    servers.write_credentials(good, ACCESS_KEY, SECRET_KEY)
    servers.write_credentials(wrong, ACCESS_KEY, "not-the-secret")
    servers.write_credentials(rotating, ACCESS_KEY, "not-the-secret-yet")
    return [
        {"path": "/p/", "bucket": "priv", "credentials": good, "upload": "64k"},
        {"path": "/pre/", "bucket": "priv", "prefix": "img/", "credentials": good},
        {"path": "/pub/", "bucket": "pub"},
        {"path": "/privanon/", "bucket": "priv"},
        {"path": "/mask/", "bucket": "priv", "mask": True},
        {"path": "/wrong/", "bucket": "priv", "credentials": wrong},
        {"path": "/rot/", "bucket": "priv", "credentials": rotating},
        {"path": "/_cas/", "cas": True, "credentials": good},
        {"path": "/cache/", "bucket": "priv", "credentials": good, "cache": True},
        {"path": "/ccas/", "cas": True, "credentials": good, "cache": True},
        {"path": "/slow/", "bucket": "priv", "credentials": good, "backend": silent_port, "read_timeout": 2},
    ], rotating


def request(port, method, path, headers=None, body=None, timeout=30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        own_host = any(name.lower() == "host" for name, _ in (headers or []))
        conn.putrequest(method, path, skip_accept_encoding=True, skip_host=own_host)
        for name, value in (headers or []):
            conn.putheader(name, value.encode("utf-8"))
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, resp.headers, data
    finally:
        conn.close()


def load_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    header = lines[0].split("\t")
    for line in lines[1:]:
        cells = line.split("\t")
        cells += [""] * (len(header) - len(cells))
        cases.append(dict(zip(header, cells)))
    return cases


def expand(text, facts, server):
    def sub(m):
        kind, _, key = m.group(1).partition(":")
        if kind == "server":
            return server
        if kind == "past":
            return "Sat, 01 Jan 2000 00:00:00 GMT"
        if kind == "future":
            return email.utils.formatdate(time.time() + 86400 * 365, usegmt=True)
        return facts[key][kind]
    return re.sub(r"\{([a-z]+(?::[^}]*)?)\}", sub, text)


def split_list(cell):
    return [part.strip(" ") for part in cell.split(" | ") if part.strip()] if cell else []


def run_case(results, server, case, facts):
    name = f"{server.name}: {case['name']}"
    path = expand(case["path"], facts, server.name).replace(" ", "%20")
    headers = []
    for h in split_list(case["headers"]):
        key, _, value = h.partition(":")
        headers.append((key.strip(), expand(value[1:] if value.startswith(" ") else value, facts, server.name)))
    body = None
    if case["method"] in ("PUT", "POST"):
        send = expand(case["body"], facts, server.name)
        body = b"x" * int(send[1:]) if send.startswith("@") else send.encode()
    try:
        status, got_headers, data = request(server.port, case["method"], path, headers, body)
    except Exception as e:  # a dropped connection is a failed case, not a crashed run
        results.check(name, False, f"request failed: {e!r}")
        return
    problems = []
    if status != int(case["status"]):
        problems.append(f"status {status}, want {case['status']}")
    for expect in split_list(expand(case["expect_headers"], facts, server.name)):
        if expect.startswith("!"):
            if got_headers.get(expect[1:]) is not None:
                problems.append(f"header {expect[1:]} present: {got_headers.get(expect[1:])!r}")
            continue
        key, _, want = expect.partition(":")
        want = want.strip()
        got = got_headers.get(key.strip())
        if want.startswith("~"):
            if got is None or not re.search(want[1:], got):
                problems.append(f"header {key} {got!r} !~ {want[1:]!r}")
        elif got != want:
            problems.append(f"header {key} {got!r} != {want!r}")
    want_body = expand(case["expect_body"], facts, server.name).replace("\\n", "\n")
    text = data.decode("utf-8", "replace")
    if want_body == "-":
        pass
    elif want_body == "<empty>":
        if data:
            problems.append(f"body {text[:80]!r}, want none")
    elif want_body.startswith("!~"):
        if want_body[2:] in text:
            problems.append(f"body has {want_body[2:]!r}: {text[:120]!r}")
    elif want_body.startswith("~"):
        if want_body[1:] not in text:
            problems.append(f"body {text[:160]!r} lacks {want_body[1:]!r}")
    elif text != want_body:
        problems.append(f"body {text[:160]!r} != {want_body!r}")
    results.check(name, not problems, "; ".join(problems))


def scenario_core_against_verifier(results, cairn):
    """The core's signatures, sent straight to the service: valid ones pass, tampered ones fail."""
    sign = os.path.join(servers.BUILD, "cairn-sign")
    for key, body in OBJECTS.items():
        path = "/priv/" + "".join(chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "-_.~/")
                                  else f"%{b:02X}" for b in key.encode())
        amz_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        host = f"127.0.0.1:{cairn.port}"

        def signed(method, sign_path, send_path, tamper_header=None):
            auth = subprocess.run([sign, method, sign_path, amz_date, ACCESS_KEY, SECRET_KEY, EMPTY_SHA256,
                                   f"host:{host}", f"x-amz-date:{amz_date}", f"x-amz-content-sha256:{EMPTY_SHA256}"],
                                  check=True, capture_output=True, text=True).stdout.strip()
            headers = [("Authorization", auth), ("x-amz-date", tamper_header or amz_date),
                       ("x-amz-content-sha256", EMPTY_SHA256)]
            return request(cairn.port, method, send_path, headers)
        status, _, data = signed("GET", path, path)
        results.check(f"core signs GET {key!r} as the service verifies", status == 200 and data == body,
                      f"{status} {data[:120]!r}")
        tampered = "/priv/Z" + path[len("/priv/"):]
        status, _, data = signed("GET", path, tampered)
        results.check(f"core: tampered path of {key!r} refused", status == 403 and b"SignatureDoesNotMatch" in data,
                      f"{status} {data[:120]!r}")
    same_day = amz_date[:9] + ("000000Z" if amz_date[9:] != "000000Z" else "000001Z")
    status, _, data = signed("GET", path, path, tamper_header=same_day)
    results.check("core: tampered x-amz-date refused", status == 403 and b"SignatureDoesNotMatch" in data,
                  f"{status} {data[:120]!r}")
    status, _, data = signed("HEAD", path, path)
    results.check("core: HEAD signed", status == 200, f"{status}")


def write_clock(path, t):
    with open(path + ".tmp", "w") as f:
        f.write(f"{int(t)}\n")
    os.replace(path + ".tmp", path)


def scenario_date_change(results, server, clock_file):
    """The signing key is per UTC date: 2 s before and after midnight both sign validly."""
    now = time.time()
    midnight = (int(now) // 86400 + 1) * 86400
    for label, t in [("23:59:58", midnight - 2), ("00:00:02 next day", midnight + 2), ("00:00:03", midnight + 3)]:
        write_clock(clock_file, t)
        status, _, data = request(server.port, "GET", "/p/a.txt")
        results.check(f"{server.name}: signs at {label} UTC", status == 200, f"{status} {data[:160]!r}")
    os.remove(clock_file)
    status, _, _ = request(server.port, "GET", "/p/a.txt")
    results.check(f"{server.name}: signs back on the real clock", status == 200, f"{status}")


def scenario_reload(results, server, rotating):
    status, _, data = request(server.port, "GET", "/rot/a.txt")
    results.check(f"{server.name}: old credentials refused", status == 403 and b"SignatureDoesNotMatch" in data,
                  f"{status} {data[:120]!r}")
    servers.write_credentials(rotating, ACCESS_KEY, SECRET_KEY)
    server.reload()
    status, _, data = request(server.port, "GET", "/rot/a.txt")
    results.check(f"{server.name}: credentials reloaded", status == 200 and data == OBJECTS["a.txt"],
                  f"{status} {data[:120]!r}")
    servers.write_credentials(rotating, ACCESS_KEY, "not-the-secret-yet")
    server.reload()


def scenario_cairn_down(results, server):
    status, headers, data = request(server.port, "GET", "/p/a.txt", timeout=30)
    results.check(f"{server.name}: Cairn stopped gives 502 or 504", status in (502, 504), f"{status} {data[:120]!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--servers", default="nginx,apache")
    parser.add_argument("--no-memcheck", action="store_true", help="no valgrind / ASan")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir")
    args = parser.parse_args()
    wanted = args.servers.split(",")
    memcheck = not args.no_memcheck
    workdir = tempfile.mkdtemp(prefix="cairn-connector-")
    results = Results()
    cairn = servers.Cairn(workdir)
    silent = servers.SilentBackend()
    started = []
    try:
        cairn.start()
        silent.start()
        facts = load_data(s3_client(cairn.port))
        locs, rotating = locations(workdir, silent.port)
        clock_file = os.path.join(workdir, "clock")
        env = dict(os.environ, CAIRN_TEST_CLOCK_FILE=clock_file)
        web = []
        if "nginx" in wanted:
            web.append(servers.Nginx(workdir, cairn.port, locs, valgrind=memcheck))
        if "apache" in wanted:
            web.append(servers.Apache(workdir, cairn.port, locs, asan=memcheck))
        for server in web:
            server.start(env)
            started.append(server)
        scenario_core_against_verifier(results, cairn)
        cases = load_cases(os.path.join(servers.HERE, "cases.tsv"))
        for server in web:
            for case in cases:
                if case["servers"] in ("all", server.name):
                    run_case(results, server, case, facts)
            scenario_date_change(results, server, clock_file)
            scenario_reload(results, server, rotating)
        cairn.stop()
        for server in web:
            scenario_cairn_down(results, server)
    except Exception:
        traceback.print_exc()
        results.check("the run itself", False, "stopped by an exception")
    finally:
        for server in started:
            try:
                report = server.stop()
            except Exception as e:  # still stop the others
                report = f"stop failed: {e!r}"
            if memcheck:
                results.check(f"{server.name}: memory checker report clean", not report, report[:3000])
        cairn.stop()
        silent.stop()
        if args.keep or results.failed:
            print(f"logs kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"{results.passed} passed, {results.failed} failed")
    return 0 if results.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
