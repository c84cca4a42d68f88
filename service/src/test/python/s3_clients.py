#!/usr/bin/env python3
"""Drives a running Cairn service with boto3 or with the AWS CLI; exits non-zero on any failure.

usage: s3_clients.py boto3|cli ENDPOINT ACCESS_KEY SECRET_KEY BUCKET_PREFIX
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what)


def run_boto3(endpoint, access, secret, prefix):
    import boto3
    from boto3.s3.transfer import TransferConfig
    from botocore.config import Config
    from botocore.exceptions import ClientError

    s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access, aws_secret_access_key=secret,
                      region_name="us-east-1", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    bucket = prefix + "-boto3"
    s3.create_bucket(Bucket=bucket)
    check(any(b["Name"] == bucket for b in s3.list_buckets()["Buckets"]), "bucket listed")

    body = b"hello from boto3"
    put = s3.put_object(Bucket=bucket, Key="dir/a b.txt", Body=body, ContentType="text/plain",
                        Metadata={"k": "v"})
    check(put["ETag"] == '"%s"' % hashlib.md5(body).hexdigest(), "ETag is the MD5")
    got = s3.get_object(Bucket=bucket, Key="dir/a b.txt")
    check(got["Body"].read() == body, "body round trip")
    check(got["ContentType"] == "text/plain" and got["Metadata"] == {"k": "v"}, "headers and metadata")
    check(s3.get_object(Bucket=bucket, Key="dir/a b.txt", Range="bytes=0-4")["Body"].read() == b"hello", "range")

    try:
        s3.get_object(Bucket=bucket, Key="missing")
        check(False, "NoSuchKey raised")
    except ClientError as e:
        check(e.response["Error"]["Code"] == "NoSuchKey", "NoSuchKey code")
        check(e.response["ResponseMetadata"]["HTTPStatusCode"] == 404, "NoSuchKey status")

    for i in range(5):
        s3.put_object(Bucket=bucket, Key="many/%d" % i, Body=b"x%d" % i)
    pages = list(s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix="many/", PaginationConfig={"PageSize": 2}))
    keys = [o["Key"] for p in pages for o in p.get("Contents", [])]
    check(keys == ["many/%d" % i for i in range(5)] and len(pages) == 3, "paginated listing")
    top = s3.list_objects_v2(Bucket=bucket, Delimiter="/")
    check([p["Prefix"] for p in top["CommonPrefixes"]] == ["dir/", "many/"], "common prefixes")
    v1 = s3.list_objects(Bucket=bucket, Prefix="many/", MaxKeys=2)
    check(v1["IsTruncated"] and len(v1["Contents"]) == 2, "list objects v1")

    big = os.urandom(6 * 1024 * 1024 + 123)
    with tempfile.NamedTemporaryFile() as f:
        f.write(big)
        f.flush()
        s3.upload_file(f.name, bucket, "big.bin",
                       Config=TransferConfig(multipart_threshold=1024 * 1024, multipart_chunksize=1024 * 1024))
    head = s3.head_object(Bucket=bucket, Key="big.bin")
    check(head["ContentLength"] == len(big) and head["ETag"].endswith('-2"'), "multipart upload by upload_file (5 MiB parts)")
    check(s3.get_object(Bucket=bucket, Key="big.bin")["Body"].read() == big, "multipart content")

    s3.copy_object(Bucket=bucket, Key="copy.txt", CopySource={"Bucket": bucket, "Key": "dir/a b.txt"})
    check(s3.get_object(Bucket=bucket, Key="copy.txt")["Body"].read() == body, "copy")
    big_copy = s3.copy_object(Bucket=bucket, Key="big-copy.bin", CopySource={"Bucket": bucket, "Key": "big.bin"})
    check(big_copy["CopyObjectResult"]["ETag"] == '"%s"' % hashlib.md5(big).hexdigest(),
          "a copy of a multipart object has the MD5 of its bytes as ETag")
    s3.delete_object(Bucket=bucket, Key="big-copy.bin")

    v1_etag = s3.put_object(Bucket=bucket, Key="cas.txt", Body=b"v1")["ETag"]
    v2_etag = s3.put_object(Bucket=bucket, Key="cas.txt", Body=b"v2", IfMatch=v1_etag)["ETag"]
    try:
        s3.put_object(Bucket=bucket, Key="cas.txt", Body=b"v3", IfMatch=v1_etag)
        check(False, "If-Match with a stale ETag refused")
    except ClientError as e:
        check(e.response["Error"]["Code"] == "PreconditionFailed", "If-Match with a stale ETag refused")
    check(s3.get_object(Bucket=bucket, Key="cas.txt", IfMatch=v2_etag)["Body"].read() == b"v2", "If-Match write kept")
    try:
        s3.put_object(Bucket=bucket, Key="cas.txt", Body=b"v4", IfNoneMatch="*")
        check(False, "If-None-Match: * refused on an existing key")
    except ClientError as e:
        check(e.response["ResponseMetadata"]["HTTPStatusCode"] == 412, "If-None-Match: * refused on an existing key")
    s3.delete_object(Bucket=bucket, Key="cas.txt")

    uploads = [s3.create_multipart_upload(Bucket=bucket, Key=k)["UploadId"] for k in ("up/a/1", "up/a/2", "up/b", "up/c/1")]
    listed = s3.list_multipart_uploads(Bucket=bucket, Prefix="up/", Delimiter="/")
    check([p["Prefix"] for p in listed["CommonPrefixes"]] == ["up/a/", "up/c/"]
          and [u["Key"] for u in listed["Uploads"]] == ["up/b"], "list multipart uploads with a delimiter")
    for key, upload_id in zip(("up/a/1", "up/a/2", "up/b", "up/c/1"), uploads):
        s3.abort_multipart_upload(Bucket=bucket, Key=key, UploadId=upload_id)
    check(not s3.list_multipart_uploads(Bucket=bucket).get("Uploads"), "aborted uploads are gone")

    url = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "copy.txt"}, ExpiresIn=300)
    with urllib.request.urlopen(url) as r:
        check(r.read() == body, "presigned GET")

    check(s3.get_bucket_versioning(Bucket=bucket).get("Status") is None, "unversioned")
    versions = s3.list_object_versions(Bucket=bucket, Prefix="many/")
    check(all(v["VersionId"] == "null" for v in versions["Versions"]), "versions are null")

    everything = [{"Key": o["Key"]} for o in s3.list_objects_v2(Bucket=bucket)["Contents"]]
    deleted = s3.delete_objects(Bucket=bucket, Delete={"Objects": everything})
    check(len(deleted["Deleted"]) == len(everything), "delete_objects")
    s3.delete_bucket(Bucket=bucket)
    try:
        s3.head_bucket(Bucket=bucket)
        check(False, "bucket gone")
    except ClientError as e:
        check(e.response["ResponseMetadata"]["HTTPStatusCode"] == 404, "bucket gone")
    run_boto3_versioning(s3, prefix + "-boto3-versions")


def run_boto3_versioning(s3, bucket):
    from botocore.exceptions import ClientError

    s3.create_bucket(Bucket=bucket)
    check(s3.get_bucket_versioning(Bucket=bucket).get("Status") is None, "a new bucket has no versioning status")
    s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
    check(s3.get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled", "versioning enabled")
    v1 = s3.put_object(Bucket=bucket, Key="k", Body=b"one")["VersionId"]
    v2 = s3.put_object(Bucket=bucket, Key="k", Body=b"two")["VersionId"]
    check(v1 != v2 and v2 < v1, "each write has its own version id, newest sorting first")
    check(s3.get_object(Bucket=bucket, Key="k", VersionId=v1)["Body"].read() == b"one", "an old version by id")
    marker = s3.delete_object(Bucket=bucket, Key="k")
    check(marker["DeleteMarker"] and marker["VersionId"] not in (v1, v2), "a delete makes a delete marker")
    try:
        s3.get_object(Bucket=bucket, Key="k")
        check(False, "the key is hidden by its delete marker")
    except ClientError as e:
        headers = e.response["ResponseMetadata"]["HTTPHeaders"]
        check(e.response["Error"]["Code"] == "NoSuchKey" and headers.get("x-amz-delete-marker") == "true",
              "NoSuchKey with x-amz-delete-marker")
    listed = s3.list_object_versions(Bucket=bucket)
    check([v["VersionId"] for v in listed["Versions"]] == [v2, v1], "versions listed newest first")
    check([m["VersionId"] for m in listed["DeleteMarkers"]] == [marker["VersionId"]]
          and listed["DeleteMarkers"][0]["IsLatest"], "the delete marker is the latest")
    pages = list(s3.get_paginator("list_object_versions").paginate(Bucket=bucket, PaginationConfig={"PageSize": 1}))
    check(len(pages) == 3, "versions paged one by one")
    s3.delete_object(Bucket=bucket, Key="k", VersionId=marker["VersionId"])
    check(s3.get_object(Bucket=bucket, Key="k")["Body"].read() == b"two", "removing the marker brings the key back")
    gone = s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": "k", "VersionId": v1}, {"Key": "k", "VersionId": v2}]})
    check(sorted(d["VersionId"] for d in gone["Deleted"]) == sorted([v1, v2]), "delete_objects by version")
    check(not s3.list_object_versions(Bucket=bucket).get("Versions"), "no version left")
    s3.delete_bucket(Bucket=bucket)


def run_cli(endpoint, access, secret, prefix):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=access, AWS_SECRET_ACCESS_KEY=secret, AWS_DEFAULT_REGION="us-east-1",
               AWS_EC2_METADATA_DISABLED="true", AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null")

    def aws(*args):
        cmd = ["aws", "--endpoint-url", endpoint] + list(args)
        if args[0] == "s3" and args[1] in ("cp", "sync"):
            cmd.append("--no-progress")
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise AssertionError("%s failed: %s %s" % (" ".join(cmd), out.stdout, out.stderr))
        return out.stdout

    bucket = prefix + "-cli"
    aws("s3", "mb", "s3://" + bucket)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "src")
        os.makedirs(os.path.join(src, "sub dir"))
        files = {"a.txt": b"alpha", "sub dir/b.bin": os.urandom(9 * 1024 * 1024), "c%+.txt": b"odd name"}
        for name, data in files.items():
            with open(os.path.join(src, name), "wb") as f:
                f.write(data)
        aws("s3", "sync", src, "s3://%s/site" % bucket)
        listing = aws("s3", "ls", "--recursive", "s3://%s/" % bucket)
        for name in files:
            check(("site/" + name) in listing, "listed " + name)
        dst = os.path.join(d, "dst")
        aws("s3", "sync", "s3://%s/site" % bucket, dst)
        for name, data in files.items():
            with open(os.path.join(dst, name), "rb") as f:
                check(f.read() == data, "synced back " + name)
        aws("s3", "cp", os.path.join(src, "a.txt"), "s3://%s/single.txt" % bucket)
        head = json.loads(aws("s3api", "head-object", "--bucket", bucket, "--key", "single.txt"))
        check(head["ContentLength"] == 5 and head["ETag"] == '"%s"' % hashlib.md5(b"alpha").hexdigest(), "s3api head-object")
        objs = json.loads(aws("s3api", "list-objects-v2", "--bucket", bucket, "--prefix", "site/"))
        check(len(objs["Contents"]) == 3, "s3api list-objects-v2")
        out = os.path.join(d, "got.txt")
        aws("s3api", "get-object", "--bucket", bucket, "--key", "single.txt", out)
        with open(out, "rb") as f:
            check(f.read() == b"alpha", "s3api get-object")
    def aws_error(code, *args):
        cmd = ["aws", "--endpoint-url", endpoint] + list(args)
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        check(out.returncode != 0 and "(%s)" % code in out.stderr, "%s answers %s: %s" % (args[1], code, out.stderr.strip()))

    aws("s3api", "head-bucket", "--bucket", bucket)
    check(json.loads(aws("s3api", "get-bucket-location", "--bucket", bucket))["LocationConstraint"] is None,
          "s3api get-bucket-location")
    attributes = json.loads(aws("s3api", "get-object-attributes", "--bucket", bucket, "--key", "single.txt",
                                "--object-attributes", "ETag", "ObjectSize", "StorageClass"))
    check(attributes["ETag"] == hashlib.md5(b"alpha").hexdigest() and attributes["ObjectSize"] == 5,
          "s3api get-object-attributes")
    check(json.loads(aws("s3api", "get-object-tagging", "--bucket", bucket, "--key", "single.txt"))["TagSet"] == [],
          "s3api get-object-tagging")
    aws_error("NotImplemented", "s3api", "put-object-tagging", "--bucket", bucket, "--key", "single.txt",
              "--tagging", "TagSet=[{Key=a,Value=b}]")
    aws_error("NoSuchBucketPolicy", "s3api", "get-bucket-policy-status", "--bucket", bucket)
    aws_error("OwnershipControlsNotFoundError", "s3api", "get-bucket-ownership-controls", "--bucket", bucket)
    etag = json.loads(aws("s3api", "put-object", "--bucket", bucket, "--key", "cas.txt"))["ETag"]
    aws("s3api", "put-object", "--bucket", bucket, "--key", "cas.txt", "--if-match", etag)
    upload = json.loads(aws("s3api", "create-multipart-upload", "--bucket", bucket, "--key", "up/x/1"))["UploadId"]
    listed = json.loads(aws("s3api", "list-multipart-uploads", "--bucket", bucket, "--delimiter", "/"))
    check([p["Prefix"] for p in listed["CommonPrefixes"]] == ["up/"], "s3api list-multipart-uploads --delimiter")
    aws("s3api", "abort-multipart-upload", "--bucket", bucket, "--key", "up/x/1", "--upload-id", upload)
    aws("s3", "rm", "--recursive", "s3://%s/" % bucket)
    aws("s3", "rb", "s3://" + bucket)
    check(bucket not in aws("s3", "ls"), "bucket removed")


if __name__ == "__main__":
    mode, endpoint, access, secret, prefix = sys.argv[1:6]
    {"boto3": run_boto3, "cli": run_cli}[mode](endpoint, access, secret, prefix)
    print("PASS", mode)
