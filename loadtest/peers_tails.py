#!/usr/bin/env python3
"""Prepares one server for the open-loop tails runs of loadtest/peers.sh, and reads vegeta's reports.

  peers_tails.py bodies DIR N SIZE
      writes N files of SIZE random bytes into DIR (kept when they are there already).
  peers_tails.py load ENDPOINT ACCESS SECRET BUCKET COUNT SIZE WORKDIR BODIES N
      creates BUCKET, writes COUNT objects of SIZE bytes (keys t/0000000 ...), then writes
      WORKDIR/get.targets, vegeta targets of presigned GETs of those keys, and WORKDIR/put.targets,
      N presigned PUTs over the same keys, each with a body of its own from BODIES; valid two hours.
  peers_tails.py figures REPORT.json
      prints requests/s of successful requests, p50 ms, p99 ms, and the share of failed requests.

Presigned URLs keep the load generator light: vegeta sends a prepared request and signs nothing.
"""
import datetime
import hashlib
import hmac
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import boto3
from botocore.config import Config


def client(endpoint, access, secret):
    config = Config(signature_version="s3v4", s3={"addressing_style": "path"},
                    retries={"max_attempts": 3, "mode": "standard"}, max_pool_connections=16)
    return boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access, aws_secret_access_key=secret,
                        region_name="us-east-1", config=config)


class Presigner:
    """SigV4 query signing of path-style URLs (what boto3's generate_presigned_url makes, at a
    tenth of its cost: tens of thousands of URLs are signed per run)."""

    def __init__(self, endpoint, access, secret, expires, region="us-east-1"):
        self.endpoint, self.access, self.expires, self.region = endpoint.rstrip("/"), access, expires, region
        self.host = endpoint.split("://", 1)[1].rstrip("/")
        now = datetime.datetime.now(datetime.timezone.utc)
        self.amz_date, self.day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
        key = ("AWS4" + secret).encode()
        for part in (self.day, region, "s3", "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        self.signing_key = key
        self.scope = "%s/%s/s3/aws4_request" % (self.day, region)

    def url(self, method, bucket, key):
        path = "/%s/%s" % (quote(bucket, safe=""), quote(key, safe="/~"))
        query = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=%s&X-Amz-Date=%s&X-Amz-Expires=%d" \
                "&X-Amz-SignedHeaders=host" % (quote(self.access + "/" + self.scope, safe="~"), self.amz_date,
                                               self.expires)
        canonical = "\n".join([method, path, query, "host:" + self.host, "", "host", "UNSIGNED-PAYLOAD"])
        to_sign = "\n".join(["AWS4-HMAC-SHA256", self.amz_date, self.scope,
                             hashlib.sha256(canonical.encode()).hexdigest()])
        signature = hmac.new(self.signing_key, to_sign.encode(), hashlib.sha256).hexdigest()
        return "%s%s?%s&X-Amz-Signature=%s" % (self.endpoint, path, query, signature)


def body_path(directory, i):
    return os.path.join(directory, "%07d" % i)


def bodies(directory, n, size):
    os.makedirs(directory, exist_ok=True)
    for i in range(int(n)):
        path = body_path(directory, i)
        if not os.path.exists(path) or os.path.getsize(path) != int(size):
            with open(path, "wb") as f:
                f.write(os.urandom(int(size)))


def load(endpoint, access, secret, bucket, count, size, workdir, bodies_dir, n):
    s3 = client(endpoint, access, secret)
    s3.create_bucket(Bucket=bucket)
    count, size, n = int(count), int(size), int(n)
    keys = ["t/%07d" % i for i in range(count)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda k: s3.put_object(Bucket=bucket, Key=k, Body=os.urandom(size)), keys))
    os.makedirs(workdir, exist_ok=True)
    presign = Presigner(endpoint, access, secret, 7200)
    with open(os.path.join(workdir, "get.targets"), "w") as get:
        for k in keys:
            get.write("GET %s\n\n" % presign.url("GET", bucket, k))
    with open(os.path.join(workdir, "put.targets"), "w") as put:
        for i in range(n):
            put.write("PUT %s\n@%s\n\n" % (presign.url("PUT", bucket, keys[i % count]), body_path(bodies_dir, i)))


def figures(report_path):
    r = json.load(open(report_path))
    lat = r["latencies"]
    ok = r.get("success", 0.0)
    print("%.1f %.2f %.2f %.4f" % (r.get("throughput", 0.0), lat["50th"] / 1e6, lat["99th"] / 1e6, 1.0 - ok))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"bodies": bodies, "load": load, "figures": figures}[command](*args)
