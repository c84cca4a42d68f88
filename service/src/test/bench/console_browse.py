"""Time until a prefix of 200 images shows in full in the console, cold and warm.

usage: console_browse.py BASE_URL KEY SECRET IMAGES_ROOT ROUNDS

IMAGES_ROOT/r<N>/ holds the images of round N. Each round uploads its images under a prefix of
their own (so its first view is cold: no thumbnail made yet), opens the prefix in headless
Chromium with the browser's cache off and waits until every thumbnail has loaded (cold), then
opens it again (warm: the thumbnails are made). The window is tall enough to hold the whole grid,
so lazy loading asks for every thumbnail at once. Prints one line per view: round, kind, seconds.
"""
import os
import sys
import time

import boto3
from botocore.config import Config
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, key, secret, root, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
bucket = "console-bench"
s3 = boto3.client("s3", endpoint_url=base, aws_access_key_id=key, aws_secret_access_key=secret, region_name="us-east-1",
                  config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
try:
    s3.create_bucket(Bucket=bucket)
except s3.exceptions.BucketAlreadyOwnedByYou:
    pass

options = webdriver.ChromeOptions()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,9000", "--disable-gpu"):
    options.add_argument(arg)
driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
driver.set_page_load_timeout(300)
try:
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.get(base + "/console/login")
    driver.find_element(By.ID, "accessKey").send_keys(key)
    driver.find_element(By.ID, "secretKey").send_keys(secret)
    driver.find_element(By.CSS_SELECTOR, "form.signin button").click()
    WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(
        lambda d: d.find_element(By.TAG_NAME, "h1").text == "Buckets")

    def view(prefix):
        start = time.monotonic()
        driver.get("%s/console/b/%s?prefix=%s" % (base, bucket, prefix))
        WebDriverWait(driver, 600, poll_frequency=0.02).until(lambda d: d.execute_script(
            "const i = [...document.querySelectorAll('.grid img')];"
            "return i.length && i.every(x => x.complete && x.naturalWidth > 0) ? i.length : 0;"))
        elapsed = time.monotonic() - start
        count = driver.execute_script("return document.querySelectorAll('.grid img').length")
        return elapsed, count

    for r in range(1, rounds + 1):
        folder = os.path.join(root, "r%d" % r)
        prefix = "r%d/" % r
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                s3.put_object(Bucket=bucket, Key=prefix + name, Body=f.read(), ContentType="image/jpeg")
        cold, n = view(prefix)
        warm, n2 = view(prefix)
        print("%d cold %.3f %d" % (r, cold, n))
        print("%d warm %.3f %d" % (r, warm, n2))
        sys.stdout.flush()
finally:
    driver.quit()
