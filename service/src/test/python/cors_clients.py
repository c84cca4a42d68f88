"""CORS as its users meet it: boto3 sets, reads and deletes a bucket's rules, urllib sends
preflights as a browser would, and headless Chromium (Selenium) on a page served from another
127.0.0.1 port fetches from and uploads to a bucket with CORS (allowed) and one without (blocked).

usage: cors_clients.py ENDPOINT ACCESS_KEY SECRET_KEY

Exits non-zero on the first failed check, printing what failed; prints {"ok": true} at the end.
"""
import http.server
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

import boto3
from botocore.config import Config
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

endpoint, access, secret = sys.argv[1:4]
s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access, aws_secret_access_key=secret,
                  region_name="us-east-1", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
suffix = "%d" % (int(time.time() * 1000) % 1000000)
allowed, blocked = "cors-on-" + suffix, "cors-off-" + suffix


def check(what, ok, detail=""):
    if not ok:
        print(json.dumps({"ok": False, "failed": what, "detail": str(detail)[:2000]}))
        sys.exit(1)


def preflight(path, origin, method, headers=None):
    h = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        h["Access-Control-Request-Headers"] = headers
    req = urllib.request.Request(endpoint + path, method="OPTIONS", headers=h)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


# A page on another port: its origin is not the service's.
class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>app</title><p>app</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


page = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
threading.Thread(target=page.serve_forever, daemon=True).start()
origin = "http://127.0.0.1:%d" % page.server_address[1]

for b in (allowed, blocked):
    s3.create_bucket(Bucket=b, ACL="public-read")
    s3.put_object(Bucket=b, Key="hello.txt", Body=b"hello from " + b.encode(), ContentType="text/plain")

# boto3: put, get, delete
rules = [{"ID": "app", "AllowedOrigins": [origin], "AllowedMethods": ["GET", "PUT"], "AllowedHeaders": ["*"],
          "ExposeHeaders": ["ETag"], "MaxAgeSeconds": 30}]
s3.put_bucket_cors(Bucket=allowed, CORSConfiguration={"CORSRules": rules})
got = s3.get_bucket_cors(Bucket=allowed)["CORSRules"]
check("get_bucket_cors answers the rules put", got == rules, got)
s3.put_bucket_cors(Bucket=blocked, CORSConfiguration={"CORSRules": rules})
s3.delete_bucket_cors(Bucket=blocked)
try:
    s3.get_bucket_cors(Bucket=blocked)
    check("no rules after delete_bucket_cors", False)
except s3.exceptions.ClientError as e:
    check("NoSuchCORSConfiguration after delete", e.response["Error"]["Code"] == "NoSuchCORSConfiguration", e.response)
try:
    s3.put_bucket_cors(Bucket=blocked, CORSConfiguration={"CORSRules": [
        {"AllowedOrigins": ["*"], "AllowedMethods": ["TRACE"]}]})
    check("an unsupported method is refused", False)
except s3.exceptions.ClientError as e:
    check("InvalidRequest for TRACE", e.response["Error"]["Code"] == "InvalidRequest", e.response)

# urllib: preflights as a browser sends them, no credentials
status, headers, _ = preflight("/%s/hello.txt" % allowed, origin, "PUT", "content-type, x-amz-meta-a")
check("preflight allowed", status == 200, (status, headers))
check("preflight names the origin", headers.get("Access-Control-Allow-Origin") == origin, headers)
check("preflight max age", headers.get("Access-Control-Max-Age") == "30", headers)
status, _, body = preflight("/%s/hello.txt" % allowed, "http://elsewhere.example", "GET")
check("preflight from another origin refused", status == 403 and "AccessForbidden" in body, (status, body))
status, _, body = preflight("/%s/hello.txt" % blocked, origin, "GET")
check("preflight on a bucket without CORS refused", status == 403, (status, body))

# Chromium: the page's fetches
options = webdriver.ChromeOptions()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
            "--disable-extensions"):
    options.add_argument(arg)
driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
driver.set_script_timeout(30)
FETCH = """
const [url, init, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
fetch(url, init).then(async r => done({status: r.status, body: await r.text(), etag: r.headers.get('ETag')}),
                      e => done({error: String(e)}));
"""
try:
    driver.get(origin + "/app.html")
    got = driver.execute_async_script(FETCH, "%s/%s/hello.txt" % (endpoint, allowed), {})
    check("a cross-origin GET from a bucket with CORS", got.get("status") == 200
          and got.get("body") == "hello from " + allowed, got)
    check("the exposed ETag is readable", (got.get("etag") or "").startswith('"'), got)
    got = driver.execute_async_script(FETCH, "%s/%s/hello.txt" % (endpoint, blocked), {})
    check("a cross-origin GET from a bucket without CORS is blocked", "error" in got, got)

    put_url = s3.generate_presigned_url("put_object", Params={"Bucket": allowed, "Key": "from-browser.bin"})
    got = driver.execute_async_script(FETCH, put_url, {"method": "PUT", "body": "uploaded by a page",
                                                       "headers": {"Content-Type": "application/octet-stream"}})
    check("a preflighted cross-origin PUT to a bucket with CORS", got.get("status") == 200, got)
    stored = s3.get_object(Bucket=allowed, Key="from-browser.bin")["Body"].read()
    check("the page's upload is stored", stored == b"uploaded by a page", stored)
    put_url = s3.generate_presigned_url("put_object", Params={"Bucket": blocked, "Key": "from-browser.bin"})
    got = driver.execute_async_script(FETCH, put_url, {"method": "PUT", "body": "x",
                                                       "headers": {"Content-Type": "application/octet-stream"}})
    check("a cross-origin PUT to a bucket without CORS is blocked", "error" in got, got)
    try:
        s3.head_object(Bucket=blocked, Key="from-browser.bin")
        check("the blocked upload stored nothing", False)
    except s3.exceptions.ClientError as e:
        check("the blocked upload stored nothing", e.response["Error"]["Code"] in ("404", "NoSuchKey"), e.response)
finally:
    driver.quit()
    page.shutdown()
print(json.dumps({"ok": True}))
