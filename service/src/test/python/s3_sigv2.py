#!/usr/bin/env python3
"""Signature Version 2 clients against Cairn: boto3 with signature_version='s3' and AWS CLI v1's
`aws s3 presign`, with a key's role applied as to Version 4.

usage: s3_sigv2.py ENDPOINT ADMIN_KEY ADMIN_SECRET READER_KEY READER_SECRET BUCKET

The reader key holds read-only on BUCKET. Exits non-zero on the first difference, naming it.
"""
import os
import subprocess
import sys
import urllib.error
import urllib.request

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def client(endpoint, key, secret):
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                        aws_secret_access_key=secret,
                        config=Config(signature_version="s3", s3={"addressing_style": "path"},
                                      retries={"max_attempts": 1}))


def http(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
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
    endpoint, admin_key, admin_secret, reader_key, reader_secret, bucket = sys.argv[1:7]
    admin = client(endpoint, admin_key, admin_secret)
    reader = client(endpoint, reader_key, reader_secret)

    admin.create_bucket(Bucket=bucket)
    admin.put_object(Bucket=bucket, Key="dir/a b.txt", Body=b"signed with v2", ContentType="text/plain",
                     Metadata={"author": "ann"})
    got = admin.get_object(Bucket=bucket, Key="dir/a b.txt")
    expect("PUT then GET", got["Body"].read() == b"signed with v2" and got["Metadata"] == {"author": "ann"}, str(got))
    head = admin.head_object(Bucket=bucket, Key="dir/a b.txt")
    expect("HEAD", head["ContentLength"] == 14 and head["ContentType"] == "text/plain", str(head))
    expect("ListObjectsV2", [o["Key"] for o in admin.list_objects_v2(Bucket=bucket, Prefix="dir/")["Contents"]]
           == ["dir/a b.txt"])
    expect("ListObjects", [o["Key"] for o in admin.list_objects(Bucket=bucket)["Contents"]] == ["dir/a b.txt"])
    expect("ListBuckets", bucket in [b["Name"] for b in admin.list_buckets()["Buckets"]])
    expect("GetObjectAcl (a signed sub-resource)", admin.get_object_acl(Bucket=bucket, Key="dir/a b.txt")["Grants"])

    part = os.urandom(70 * 1024)
    upload = admin.create_multipart_upload(Bucket=bucket, Key="multi.bin")["UploadId"]
    etags = [admin.upload_part(Bucket=bucket, Key="multi.bin", UploadId=upload, PartNumber=n, Body=part)["ETag"]
             for n in (1, 2)]
    expect("ListParts", len(admin.list_parts(Bucket=bucket, Key="multi.bin", UploadId=upload)["Parts"]) == 2)
    admin.complete_multipart_upload(Bucket=bucket, Key="multi.bin", UploadId=upload, MultipartUpload={
        "Parts": [{"PartNumber": n, "ETag": e} for n, e in zip((1, 2), etags)]})
    expect("multipart upload", admin.get_object(Bucket=bucket, Key="multi.bin")["Body"].read() == part * 2)

    url = admin.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "dir/a b.txt"}, ExpiresIn=300)
    expect("boto3 presigns with Version 2", "AWSAccessKeyId=" in url and "X-Amz-" not in url, url)
    expect("a presigned GET fetched with plain HTTP", http(url) == (200, b"signed with v2"), url)
    url = admin.generate_presigned_url("get_object", Params={
        "Bucket": bucket, "Key": "dir/a b.txt", "ResponseContentDisposition": 'attachment; filename="a b.txt"'},
        ExpiresIn=300)
    with urllib.request.urlopen(url, timeout=60) as r:
        expect("a presigned GET with a response override", r.headers["Content-Disposition"]
               == 'attachment; filename="a b.txt"', str(r.headers))
    expired = admin.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "dir/a b.txt"},
                                           ExpiresIn=-60)
    status, body = http(expired)
    expect("an expired presigned URL", status == 403 and b"<Code>AccessDenied</Code>" in body
           and b"Request has expired" in body, f"{status} {body!r}")
    forged = client(endpoint, admin_key, "not-the-secret").generate_presigned_url(
        "get_object", Params={"Bucket": bucket, "Key": "dir/a b.txt"}, ExpiresIn=300)
    status, body = http(forged)
    expect("a wrong secret: SignatureDoesNotMatch with S3's StringToSign", status == 403
           and b"<Code>SignatureDoesNotMatch</Code>" in body
           and f"<StringToSign>GET\n\n\n".encode() in body and f"/{bucket}/dir/a%20b.txt</StringToSign>".encode() in body,
           f"{status} {body!r}")
    expect("an unknown key: InvalidAccessKeyId", error_code(lambda: client(endpoint, "AKIDUNKNOWNV2", "x")
           .list_buckets()) == ("InvalidAccessKeyId", 403))

    expect("a read-only key reads with Version 2",
           reader.get_object(Bucket=bucket, Key="dir/a b.txt")["Body"].read() == b"signed with v2")
    expect("a read-only key may not write with Version 2",
           error_code(lambda: reader.put_object(Bucket=bucket, Key="no.txt", Body=b"x")) == ("AccessDenied", 403))
    expect("a read-only key may not delete with Version 2",
           error_code(lambda: reader.delete_object(Bucket=bucket, Key="dir/a b.txt")) == ("AccessDenied", 403))

    env = dict(os.environ, AWS_ACCESS_KEY_ID=admin_key, AWS_SECRET_ACCESS_KEY=admin_secret,
               AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)
    aws = os.path.join(os.path.dirname(sys.executable), "aws")
    cli = subprocess.run([aws if os.path.exists(aws) else "aws", "s3", "presign", f"s3://{bucket}/dir/a b.txt",
                          "--endpoint-url", endpoint], env=env, capture_output=True, text=True, timeout=120)
    expect("aws s3 presign ran", cli.returncode == 0, cli.stderr)
    url = cli.stdout.strip()
    expect("AWS CLI v1 presigns with Version 2", "AWSAccessKeyId=" in url, url)
    expect("the AWS CLI's presigned URL fetched with plain HTTP", http(url) == (200, b"signed with v2"), url)

    admin.delete_object(Bucket=bucket, Key="dir/a b.txt")
    admin.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": "multi.bin"}]})
    expect("DeleteObject and DeleteObjects", admin.list_objects_v2(Bucket=bucket)["KeyCount"] == 0)
    admin.delete_bucket(Bucket=bucket)
    print("all ok")


if __name__ == "__main__":
    main()
