#!/usr/bin/env python3
"""Drives a running Cairn service with rclone or s3cmd through their common operations; exits
non-zero on the first failure.

usage: sync_clients.py rclone|s3cmd ENDPOINT ACCESS_KEY SECRET_KEY BUCKET
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.error
import urllib.request


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what)


def run(command, env=None, expect_failure=False):
    print("$", " ".join(command), flush=True)
    p = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if (p.returncode == 0) == expect_failure:
        raise AssertionError("%s exited %d\nstdout: %s\nstderr: %s" % (command[0], p.returncode, p.stdout, p.stderr))
    return p.stdout


def local_tree(root, files):
    for name, data in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def read_tree(root):
    out = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            path = os.path.join(dirpath, n)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


FILES = {
    "a.txt": b"alpha\n",
    "sub/b.bin": os.urandom(300 * 1024),
    "sub/deep/c d.txt": b"a key with a space\n",
    "big.bin": os.urandom(5 * 1024 * 1024 + 17),  # multipart: a 5 MB part and a short one
}


def run_rclone(endpoint, access, secret, bucket, work):
    # The AWS SDK in rclone refuses a CA bundle from the environment over plain HTTP.
    env = {k: v for k, v in os.environ.items() if k != "AWS_CA_BUNDLE"}
    env.update(RCLONE_CONFIG_CAIRN_TYPE="s3", RCLONE_CONFIG_CAIRN_PROVIDER="Other",
               RCLONE_CONFIG_CAIRN_ACCESS_KEY_ID=access, RCLONE_CONFIG_CAIRN_SECRET_ACCESS_KEY=secret,
               RCLONE_CONFIG_CAIRN_ENDPOINT=endpoint, RCLONE_CONFIG_CAIRN_REGION="us-east-1",
               RCLONE_CONFIG_CAIRN_FORCE_PATH_STYLE="true", RCLONE_CONFIG="/dev/null")
    rc = ["rclone", "--s3-upload-cutoff", "5M", "--s3-chunk-size", "5M", "--retries", "1",
          "--low-level-retries", "1"]
    remote = "cairn:" + bucket
    src = os.path.join(work, "src")
    local_tree(src, FILES)

    run(rc + ["mkdir", remote], env)
    run(rc + ["copy", src, remote + "/dir"], env)
    run(rc + ["check", src, remote + "/dir"], env)
    listed = json.loads(run(rc + ["lsjson", "-R", "--files-only", "--hash", remote], env))
    check(sorted(e["Path"] for e in listed) == sorted("dir/" + n for n in FILES), "lsjson lists every file")
    small = [e for e in listed if e["Path"] == "dir/a.txt"][0]
    check(small["Hashes"]["md5"] == hashlib.md5(FILES["a.txt"]).hexdigest(), "lsjson's MD5 is the content's")
    sizes = json.loads(run(rc + ["size", "--json", remote], env))
    check(sizes["count"] == len(FILES) and sizes["bytes"] == sum(map(len, FILES.values())), "size")

    run(rc + ["copyto", remote + "/dir/a.txt", remote + "/copied.txt"], env)
    check(run(rc + ["cat", remote + "/copied.txt"], env) == FILES["a.txt"].decode(), "server-side copy, cat")

    os.remove(os.path.join(src, "a.txt"))
    local_tree(src, {"new.txt": b"added later\n"})
    run(rc + ["sync", src, remote + "/dir"], env)
    run(rc + ["check", src, remote + "/dir"], env)
    down = os.path.join(work, "down")
    run(rc + ["copy", remote + "/dir", down], env)
    check(read_tree(down) == read_tree(src), "sync then copy back gives the same tree")

    run(rc + ["cleanup", remote], env)
    run(rc + ["delete", remote + "/dir/sub"], env)
    run(rc + ["rmdirs", remote + "/dir"], env)
    remaining = json.loads(run(rc + ["lsjson", "-R", "--files-only", remote], env))
    check(sorted(e["Path"] for e in remaining) == ["copied.txt", "dir/big.bin", "dir/new.txt"], "delete")
    run(rc + ["rmdir", remote], env, expect_failure=True)  # not empty: BucketNotEmpty
    run(rc + ["purge", remote], env)
    run(rc + ["lsd", "cairn:"], env)
    check(bucket not in run(rc + ["lsd", "cairn:"], env), "purge removed the bucket")


def run_s3cmd(endpoint, access, secret, bucket, work):
    host = urllib.parse.urlparse(endpoint).netloc
    config = os.path.join(work, "s3cfg")
    with open(config, "w") as f:
        f.write("[default]\naccess_key = %s\nsecret_key = %s\nhost_base = %s\nhost_bucket = %s\n"
                "use_https = False\nsignature_v2 = False\nbucket_location = us-east-1\ncheck_ssl_certificate = False\n"
                % (access, secret, host, host))
    s3 = ["s3cmd", "-c", config, "--no-progress", "--multipart-chunk-size-mb=5"]
    url = "s3://" + bucket
    src = os.path.join(work, "src")
    local_tree(src, FILES)

    run(s3 + ["mb", url])
    run(s3 + ["put", os.path.join(src, "a.txt"), url + "/a.txt"])
    run(s3 + ["put", os.path.join(src, "big.bin"), url + "/big.bin"])  # multipart
    run(s3 + ["sync", src + "/", url + "/dir/"])
    listed = run(s3 + ["ls", "-r", url])
    check(all((url + "/dir/" + n) in listed for n in FILES), "ls -r lists the synced tree")
    du = run(s3 + ["du", url]).split()
    check(int(du[0]) == len(FILES["a.txt"]) + len(FILES["big.bin"]) + sum(map(len, FILES.values())), "du")
    info = run(s3 + ["info", url + "/a.txt"])
    check(hashlib.md5(FILES["a.txt"]).hexdigest() in info, "info shows the MD5")
    run(s3 + ["info", url])

    run(s3 + ["cp", url + "/a.txt", url + "/copied.txt"])
    run(s3 + ["mv", url + "/copied.txt", url + "/moved.txt"])
    got = os.path.join(work, "got.txt")
    run(s3 + ["get", url + "/moved.txt", got])
    with open(got, "rb") as f:
        check(f.read() == FILES["a.txt"], "cp, mv, get")

    run(s3 + ["setacl", "--acl-public", url + "/a.txt"])
    with urllib.request.urlopen("%s/%s/a.txt" % (endpoint, bucket)) as r:
        check(r.read() == FILES["a.txt"], "public after setacl --acl-public")
    run(s3 + ["setacl", "--acl-private", url + "/a.txt"])
    try:
        urllib.request.urlopen("%s/%s/a.txt" % (endpoint, bucket))
        check(False, "private again")
    except urllib.error.HTTPError as e:
        check(e.code == 403, "private after setacl --acl-private")

    # signurl signs with Signature Version 2 (cairn.auth.signature-v2, on by default).
    signed = run(s3 + ["signurl", url + "/big.bin", "+600"]).strip()
    check("AWSAccessKeyId=" in signed, "signurl makes a Version 2 URL: " + signed)
    with urllib.request.urlopen(signed) as r:
        check(r.read() == FILES["big.bin"], "signurl's Version 2 URL is fetched with plain HTTP")
    run(s3 + ["--signature-v2", "put", os.path.join(src, "a.txt"), url + "/v2.txt"])
    got_v2 = os.path.join(work, "got-v2.txt")
    run(s3 + ["--signature-v2", "get", url + "/v2.txt", got_v2])
    with open(got_v2, "rb") as f:
        check(f.read() == FILES["a.txt"], "put and get with --signature-v2")
    check((url + "/v2.txt") in run(s3 + ["--signature-v2", "ls", url]), "ls with --signature-v2")
    run(s3 + ["--signature-v2", "del", url + "/v2.txt"])

    os.remove(os.path.join(src, "a.txt"))
    run(s3 + ["sync", "--delete-removed", src + "/", url + "/dir/"])
    listed = run(s3 + ["ls", "-r", url + "/dir/"])
    check((url + "/dir/a.txt") not in listed and (url + "/dir/big.bin") in listed, "sync --delete-removed")
    down = os.path.join(work, "down")
    run(s3 + ["sync", url + "/dir/", down + "/"])
    check(read_tree(down) == read_tree(src), "sync back gives the same tree")

    run(s3 + ["multipart", url])
    run(s3 + ["del", "--recursive", "--force", url])
    run(s3 + ["rb", url])
    check(url not in run(s3 + ["ls"]), "rb removed the bucket")


def main():
    tool, endpoint, access, secret, bucket = sys.argv[1:6]
    with tempfile.TemporaryDirectory() as work:
        {"rclone": run_rclone, "s3cmd": run_s3cmd}[tool](endpoint, access, secret, bucket, work)
    print("all ok:", tool)


if __name__ == "__main__":
    main()
