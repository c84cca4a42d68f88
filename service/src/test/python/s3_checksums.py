#!/usr/bin/env python3
"""CRC64NVME, the newest SDKs' default checksum, through boto3 (which computes it with awscrt):
PutObject, multipart uploads (FULL_OBJECT), HeadObject/GetObject with checksum mode, and the
AWS CLI's uploads. Every value is compared with botocore's own computation. Exits non-zero on
any failure.

usage: s3_checksums.py ENDPOINT ACCESS_KEY SECRET_KEY BUCKET
"""
import base64
import os
import subprocess
import sys
import tempfile

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
from botocore.httpchecksum import CrtCrc64NvmeChecksum


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print("ok:", what)


def crc64nvme(data):
    c = CrtCrc64NvmeChecksum()
    c.update(data)
    return base64.b64encode(c.digest()).decode()


def main(endpoint, access, secret, bucket):
    s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access, aws_secret_access_key=secret,
                      region_name="us-east-1", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
    s3.create_bucket(Bucket=bucket)

    body = os.urandom(100_000)
    put = s3.put_object(Bucket=bucket, Key="crc64", Body=body, ChecksumAlgorithm="CRC64NVME")
    check(put["ChecksumCRC64NVME"] == crc64nvme(body), "PutObject answers botocore's CRC64NVME")
    head = s3.head_object(Bucket=bucket, Key="crc64", ChecksumMode="ENABLED")
    check(head["ChecksumCRC64NVME"] == crc64nvme(body), "HeadObject returns it")
    check(head.get("ChecksumType") == "FULL_OBJECT", "of type FULL_OBJECT")
    got = s3.get_object(Bucket=bucket, Key="crc64", ChecksumMode="ENABLED")
    check(got["Body"].read() == body, "GetObject body checked by botocore against it")

    try:
        s3.put_object(Bucket=bucket, Key="bad", Body=b"data", ChecksumCRC64NVME=crc64nvme(b"other"))
        check(False, "a wrong CRC64NVME is refused")
    except ClientError as e:
        check(e.response["Error"]["Code"] == "BadDigest", "a wrong CRC64NVME answers BadDigest")

    p1, p2 = os.urandom(5 * 1024 * 1024), os.urandom(12345)
    up = s3.create_multipart_upload(Bucket=bucket, Key="mp", ChecksumAlgorithm="CRC64NVME")
    check(up.get("ChecksumType") == "FULL_OBJECT", "CRC64NVME uploads are FULL_OBJECT")
    parts = []
    for n, p in enumerate([p1, p2], 1):
        r = s3.upload_part(Bucket=bucket, Key="mp", UploadId=up["UploadId"], PartNumber=n, Body=p,
                           ChecksumAlgorithm="CRC64NVME")
        check(r["ChecksumCRC64NVME"] == crc64nvme(p), "part %d CRC64NVME" % n)
        parts.append({"PartNumber": n, "ETag": r["ETag"], "ChecksumCRC64NVME": r["ChecksumCRC64NVME"]})
    whole = crc64nvme(p1 + p2)
    done = s3.complete_multipart_upload(Bucket=bucket, Key="mp", UploadId=up["UploadId"],
                                        MultipartUpload={"Parts": parts}, ChecksumCRC64NVME=whole,
                                        ChecksumType="FULL_OBJECT")
    check(done["ChecksumCRC64NVME"] == whole, "the completed object's CRC64NVME is the whole object's")
    head = s3.head_object(Bucket=bucket, Key="mp", ChecksumMode="ENABLED")
    check(head["ChecksumCRC64NVME"] == whole and head["ChecksumType"] == "FULL_OBJECT", "HeadObject of the upload")
    got = s3.get_object(Bucket=bucket, Key="mp", ChecksumMode="ENABLED")
    check(got["Body"].read() == p1 + p2, "GetObject of the upload, checked by botocore")

    with tempfile.NamedTemporaryFile() as f:
        f.write(os.urandom(9 * 1024 * 1024))
        f.flush()
        env = dict(os.environ, AWS_ACCESS_KEY_ID=access, AWS_SECRET_ACCESS_KEY=secret, AWS_DEFAULT_REGION="us-east-1")
        subprocess.run(["aws", "--endpoint-url", endpoint, "s3", "cp", f.name, "s3://%s/cli" % bucket,
                        "--checksum-algorithm", "CRC64NVME"], check=True, env=env, stdout=subprocess.DEVNULL)
        with open(f.name, "rb") as r:
            data = r.read()
        head = s3.head_object(Bucket=bucket, Key="cli", ChecksumMode="ENABLED")
        check(head.get("ChecksumCRC64NVME") == crc64nvme(data), "the AWS CLI's multipart CRC64NVME upload")


if __name__ == "__main__":
    main(*sys.argv[1:5])
