#!/usr/bin/env python3
"""Writes header-signed GETs, one a line: path, Authorization, X-Amz-Date and
X-Amz-Content-Sha256, tab-separated, for signed.lua. Signed now: the service accepts them for
its clock skew (15 minutes).

usage: sign_headers.py ENDPOINT ACCESS_KEY SECRET_KEY BUCKET COUNT PREFIX > signed.txt
"""
import sys

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

endpoint, access, secret, bucket, count, prefix = sys.argv[1:7]
signer = S3SigV4Auth(Credentials(access, secret), "s3", "us-east-1")
for i in range(int(count)):
    path = "/%s/%s%07d" % (bucket, prefix, i)
    request = AWSRequest(method="GET", url=endpoint + path)
    signer.add_auth(request)
    h = request.headers
    print("\t".join((path, h["Authorization"], h["X-Amz-Date"], h["X-Amz-Content-SHA256"])))
