#!/usr/bin/env python3
"""boto3 against Cairn's keys and object ACLs (docs/security.md).

usage: s3_security.py ENDPOINT ADMIN_KEY ADMIN_SECRET READER_KEY READER_SECRET METRICS_KEY METRICS_SECRET BUCKET

The reader key holds read-only on BUCKET. Exits non-zero on the first difference, naming it.
"""
import base64
import sys
import urllib.error
import urllib.request

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers"


def client(endpoint, key, secret):
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                        aws_secret_access_key=secret,
                        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def http(url, auth=None):
    request = urllib.request.Request(url)
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode())
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def expect(what, condition, detail=""):
    if not condition:
        print(f"FAIL: {what} {detail}")
        sys.exit(1)
    print(f"ok: {what}")


def error_code(call):
    try:
        call()
    except ClientError as e:
        return e.response["Error"]["Code"], e.response["ResponseMetadata"]["HTTPStatusCode"]
    return None, 200


def main():
    endpoint, admin_key, admin_secret, reader_key, reader_secret, metrics_key, metrics_secret, bucket = sys.argv[1:9]
    admin = client(endpoint, admin_key, admin_secret)
    reader = client(endpoint, reader_key, reader_secret)
    metrics = client(endpoint, metrics_key, metrics_secret)
    admin.create_bucket(Bucket=bucket)

    admin.put_object(Bucket=bucket, Key="public.txt", Body=b"for everyone", ACL="public-read")
    admin.put_object(Bucket=bucket, Key="private.txt", Body=b"for the owner")
    status, body = http(f"{endpoint}/{bucket}/public.txt")
    expect("an anonymous GET of a public-read object in a private bucket", status == 200 and body == b"for everyone",
           f"{status} {body!r}")
    status, _ = http(f"{endpoint}/{bucket}/private.txt")
    expect("an anonymous GET of a private object is refused", status == 403, str(status))
    acl = admin.get_object_acl(Bucket=bucket, Key="public.txt")
    expect("GetObjectAcl names AllUsers READ",
           any(g["Grantee"].get("URI") == ALL_USERS and g["Permission"] == "READ" for g in acl["Grants"]), str(acl))
    expect("GetObjectAcl names the owner", acl["Owner"]["ID"] != "" and any(
        g["Grantee"].get("ID") == acl["Owner"]["ID"] and g["Permission"] == "FULL_CONTROL" for g in acl["Grants"]))
    admin.put_object_acl(Bucket=bucket, Key="private.txt", ACL="public-read")
    expect("PutObjectAcl public-read opens the object", http(f"{endpoint}/{bucket}/private.txt")[0] == 200)
    admin.put_object_acl(Bucket=bucket, Key="private.txt", AccessControlPolicy={
        "Owner": {"ID": acl["Owner"]["ID"]},
        "Grants": [{"Grantee": {"Type": "CanonicalUser", "ID": acl["Owner"]["ID"]}, "Permission": "FULL_CONTROL"}]})
    expect("PutObjectAcl with a policy of the owner alone closes it", http(f"{endpoint}/{bucket}/private.txt")[0] == 403)
    code, status = error_code(lambda: admin.put_object(Bucket=bucket, Key="x", Body=b"x",
                                                       GrantRead='emailAddress="someone@example.com"'))
    expect("a grant to someone else is NotImplemented", (code, status) == ("NotImplemented", 501), f"{code} {status}")

    got = reader.get_object(Bucket=bucket, Key="private.txt")["Body"].read()
    expect("a read-only key reads", got == b"for the owner")
    code, status = error_code(lambda: reader.put_object(Bucket=bucket, Key="private.txt", Body=b"overwritten"))
    expect("a read-only key cannot write: AccessDenied", (code, status) == ("AccessDenied", 403), f"{code} {status}")
    code, _ = error_code(lambda: reader.delete_object(Bucket=bucket, Key="private.txt"))
    expect("a read-only key cannot delete", code == "AccessDenied", str(code))
    expect("a refused write leaves the object as it was",
           admin.get_object(Bucket=bucket, Key="private.txt")["Body"].read() == b"for the owner")
    code, _ = error_code(lambda: metrics.list_objects_v2(Bucket=bucket))
    expect("a metrics key cannot list", code == "AccessDenied", str(code))
    status, body = http(f"{endpoint}/actuator/prometheus", (metrics_key, metrics_secret))
    expect("a metrics key scrapes the actuator", status == 200 and b"cairn_s3_requests_seconds" in body, str(status))
    status, _ = http(f"{endpoint}/actuator/prometheus", (reader_key, reader_secret))
    expect("a read-only key does not", status == 403, str(status))
    expect("health stays open", http(f"{endpoint}/actuator/health/readiness")[0] == 200)
    print("all passed")


if __name__ == "__main__":
    main()
