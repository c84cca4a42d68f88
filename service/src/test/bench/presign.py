#!/usr/bin/env python3
"""Writes presigned URLs (path and query only), one a line, for the wrk benchmark scripts.

usage: presign.py ENDPOINT ACCESS_KEY SECRET_KEY BUCKET METHOD(get|put) COUNT PREFIX > urls.txt
"""
import sys

import boto3
from botocore.config import Config

endpoint, access, secret, bucket, method, count, prefix = sys.argv[1:8]
s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access, aws_secret_access_key=secret,
                  region_name="us-east-1", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
op = {"get": "get_object", "put": "put_object"}[method]
for i in range(int(count)):
    url = s3.generate_presigned_url(op, Params={"Bucket": bucket, "Key": "%s%07d" % (prefix, i)}, ExpiresIn=3600)
    print(url[len(endpoint):])
