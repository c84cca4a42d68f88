"""Drives the web console in headless Chromium (Selenium), as a person would.

usage: console_browser.py BASE_URL ADMIN_KEY ADMIN_SECRET READER_KEY READER_SECRET IMAGES_DIR SHOTS_DIR NEW_VERSION

NEW_VERSION is another image named as the second of IMAGES_DIR: uploaded into the versioned bucket as its
newer version, so that the old one can be downloaded, made current again and a version deleted.

The admin key may do everything; the reader key may only list and read (the test's access rules).
Exits non-zero on the first failed check, printing what failed. Saves a screenshot of each page
under SHOTS_DIR and checks each page with axe-core: serious or critical violations fail.
"""
import hashlib
import json
import os
import sys
import time
import urllib.request

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

base, admin, admin_secret, reader, reader_secret, images_dir, shots, new_version = sys.argv[1:9]
os.makedirs(shots, exist_ok=True)
images = sorted(os.path.join(images_dir, f) for f in os.listdir(images_dir))
bucket = "console-test-%d" % (int(time.time() * 1000) % 1000000)

options = webdriver.ChromeOptions()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
            "--disable-gpu", "--no-first-run", "--disable-extensions"):
    options.add_argument(arg)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
driver.set_page_load_timeout(60)
driver.set_script_timeout(60)
# A page that is being replaced leaves stale elements behind: look again rather than fail.
wait = WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException))
shot_number = [0]
checked_pages = []


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def shot(name):
    shot_number[0] += 1
    driver.save_screenshot(os.path.join(shots, "%02d-%s.png" % (shot_number[0], name)))


def accessible(name):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    checked_pages.append({"page": name, "violations": [v["id"] for v in results["violations"]]})
    check(not bad, "accessibility of %s: %s" % (name, axe.report(bad)))


def h1():
    return driver.find_element(By.TAG_NAME, "h1").text


def wait_h1(text):
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == text)


def sign_in(key, secret):
    driver.get(base + "/console/")
    wait_h1("Sign in")
    driver.find_element(By.ID, "accessKey").send_keys(key)
    secret_field = driver.find_element(By.ID, "secretKey")
    secret_field.send_keys(secret)
    secret_field.send_keys(Keys.ENTER)
    wait_h1("Buckets")


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read()


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def thumbnails_loaded():
    return driver.execute_script(
        "const imgs = [...document.querySelectorAll('.grid img')];"
        "return imgs.length && imgs.every(i => i.complete && i.naturalWidth > 0) ? imgs.length : 0;")


def sha256_in_browser(path):
    """Fetches a console URL with the session, as the page would, and hashes what came."""
    return driver.execute_async_script(
        "const [path, done] = arguments;"
        "fetch(path, {credentials: 'same-origin'}).then(r => r.ok ? r.arrayBuffer() : Promise.reject(r.status))"
        ".then(b => crypto.subtle.digest('SHA-256', b))"
        ".then(h => done([...new Uint8Array(h)].map(x => x.toString(16).padStart(2, '0')).join('')), e => done(String(e)));",
        path)


def shot_of_versions(name):
    driver.execute_script("document.getElementById('versions').scrollIntoView()")
    shot(name)


def version_rows():
    return driver.find_elements(By.CSS_SELECTOR, "#versions tbody tr")


def accept_confirmation():
    wait.until(EC.alert_is_present())
    driver.switch_to.alert.accept()


def browser_errors():
    """What the pages logged as errors since the last call (a failed load of any resource, the icon too)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def header_fits_at(width, page):
    """Lays the page out at a phone's width: the header must wrap rather than overflow."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        sizes = driver.execute_script(
            "const h = document.querySelector('header');"
            "return [h.scrollWidth, h.clientWidth, window.innerWidth];")
        check(sizes[2] == width, "the page is laid out %d px wide: %s" % (width, sizes))
        check(sizes[0] <= sizes[1], "the header of %s fits in %d px: scrollWidth %d > clientWidth %d"
              % (page, width, sizes[0], sizes[1]))
        driver.execute_script("window.scrollTo(0, 0)")
        shot(page + "-%dpx" % width)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def bucket_row(name):
    return driver.find_element(By.XPATH, "//table[@class='buckets']//tr[th/a[text()='%s']]" % name)


def browser_request(method, path, body, with_token=True):
    """Sends a request from the page with the session's cookie, as a forged script would."""
    return driver.execute_async_script(
        "const [method, path, body, withToken, done] = arguments;"
        "const headers = {};"
        "if (withToken) headers['X-CSRF-Token'] = document.querySelector('meta[name=csrf-token]').content;"
        "if (typeof body === 'string' && body.includes('=')) headers['Content-Type'] = 'application/x-www-form-urlencoded';"
        "fetch(path, {method, headers, body, credentials: 'same-origin', redirect: 'manual'})"
        ".then(r => done(r.status), e => done(String(e)));",
        method, path, body, with_token)


try:
    # Sign-in page: labelled fields, keyboard order, a visible focus ring.
    driver.get(base + "/console/")
    wait_h1("Sign in")
    shot("sign-in")
    accessible("sign-in")
    check(driver.switch_to.active_element.get_attribute("id") == "accessKey", "the access key field has the focus first")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    check(driver.switch_to.active_element.get_attribute("id") == "secretKey", "Tab moves to the secret field")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    focused = driver.switch_to.active_element
    check(focused.tag_name == "button" and focused.text == "Sign in", "Tab moves to the sign-in button")
    outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    check(outline not in ("none", ""), "the focused button shows a focus ring, outline-style " + outline)

    driver.find_element(By.ID, "accessKey").send_keys(admin)
    driver.find_element(By.ID, "secretKey").send_keys("wrong secret" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.error"))
    check("wrong secret" in driver.find_element(By.CSS_SELECTOR, "p.error").text, "a wrong secret is refused")
    browser_errors()  # the refused sign-in is an error by design; from here on, none is expected

    sign_in(admin, admin_secret)
    shot("buckets")
    accessible("buckets")
    header_fits_at(420, "buckets")

    # Create a bucket.
    driver.find_element(By.ID, "newBucket").send_keys(bucket)
    driver.find_element(By.XPATH, "//button[text()='Create bucket']").click()
    wait.until(lambda d: "Created bucket " + bucket in d.find_element(By.CSS_SELECTOR, "p.notice").text)
    check(bucket_row(bucket).find_elements(By.CSS_SELECTOR, "button[aria-label='Delete bucket %s']" % bucket),
          "an empty bucket may be deleted")
    driver.find_element(By.LINK_TEXT, bucket).click()
    wait_h1(bucket)
    shot("bucket-empty")
    accessible("bucket-empty")

    # Upload three images by the file input.
    driver.find_element(By.ID, "files").send_keys("\n".join(images))
    wait.until(lambda d: d.find_element(By.ID, "uploads").get_attribute("data-state") in ("done", "failed"))
    states = [li.get_attribute("data-state") for li in driver.find_elements(By.CSS_SELECTOR, "#uploads li")]
    check(states == ["done"] * len(images), "every upload finished: %s" % states)
    bars = driver.execute_script("return [...document.querySelectorAll('#uploads progress')].map(p => p.value === p.max)")
    check(all(bars) and len(bars) == len(images), "each upload has a full progress bar")
    shot("uploaded")

    # See their thumbnails.
    driver.find_element(By.ID, "refresh").click()
    wait.until(lambda d: thumbnails_loaded() == len(images))
    shot("thumbnails")
    accessible("thumbnails")

    # Open one: its details.
    first = os.path.basename(images[0])
    driver.find_element(By.XPATH, "//ul[@class='grid']//a[span='%s']" % first).click()
    wait_h1(first)
    details = driver.find_element(By.CSS_SELECTOR, "table.details").text
    check(sha256_of(images[0]) in details, "the details show the SHA-256")
    check("ETag" in details and "Size" in details, "the details show ETag and size")
    wait.until(lambda d: d.execute_script("const i = document.querySelector('.preview img'); return i && i.complete && i.naturalWidth > 0"))
    shot("details")
    accessible("details")

    # Copy its links and fetch them without the session.
    with open(images[0], "rb") as f:
        original = f.read()
    for button in ("copyCas", "copySigned"):
        driver.execute_script("document.getElementById('link').value = ''")
        driver.find_element(By.ID, button).click()
        wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("value"))
        url = driver.find_element(By.ID, "link").get_attribute("value")
        check(url.startswith(base + ("/_cas/" if button == "copyCas" else "/" + bucket + "/")), "link of %s: %s" % (button, url))
        check(fetch(url) == original, "the %s link serves the image" % button)
    shot("link")
    signed_url = url
    details_url = driver.current_url

    # Public read on: the immutable link then needs no signature.
    driver.find_element(By.LINK_TEXT, "Buckets").click()
    wait_h1("Buckets")
    toggle = "button[aria-label='Public read for %s']" % bucket
    check(driver.find_element(By.CSS_SELECTOR, toggle).get_attribute("aria-pressed") == "false", "buckets start private")
    row = bucket_row(bucket)
    check(not row.find_elements(By.XPATH, ".//button[text()='Delete']"), "no Delete is offered on a bucket that holds objects")
    check("Delete it once it is empty" in row.text, "the row says why there is no Delete: " + row.text)
    driver.find_element(By.CSS_SELECTOR, toggle).click()
    wait.until(lambda d: "Public read on for " + bucket in d.find_element(By.CSS_SELECTOR, "p.notice").text)
    check(driver.find_element(By.CSS_SELECTOR, toggle).get_attribute("aria-pressed") == "true", "public read is on")
    shot("public-read")
    driver.get(details_url)
    wait_h1(first)
    driver.find_element(By.ID, "copyCas").click()
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("value"))
    url = driver.find_element(By.ID, "link").get_attribute("value")
    check(url == base + "/_cas/" + sha256_of(images[0]), "an unsigned immutable link: " + url)
    check(fetch(url) == original, "the public immutable link serves the image")

    # Delete it.
    driver.find_element(By.XPATH, "//button[text()='Delete object']").click()
    driver.switch_to.alert.accept()
    wait.until(lambda d: "Deleted " + first in d.find_element(By.CSS_SELECTOR, "p.notice").text)
    wait.until(lambda d: thumbnails_loaded() == len(images) - 1)
    check(not driver.find_elements(By.XPATH, "//ul[@class='grid']//a[span='%s']" % first), "the deleted image is gone")
    shot("after-delete")

    # Versions: switch versioning on, upload a newer version of an image, then act on the old one.
    second = os.path.basename(images[1])
    check(os.path.basename(new_version) == second, "the new version is named as the second image")
    driver.find_element(By.LINK_TEXT, "Buckets").click()
    wait_h1("Buckets")
    driver.find_element(By.CSS_SELECTOR, "button[aria-label='Enable versioning for %s']" % bucket).click()
    wait.until(lambda d: "Versioning Enabled for " + bucket in d.find_element(By.CSS_SELECTOR, "p.notice").text)
    check(driver.find_elements(By.CSS_SELECTOR, "button[aria-label='Suspend versioning for %s']" % bucket), "versioning is on")
    driver.find_element(By.LINK_TEXT, bucket).click()
    wait_h1(bucket)
    driver.find_element(By.ID, "files").send_keys(new_version)
    wait.until(lambda d: d.find_element(By.ID, "uploads").get_attribute("data-state") in ("done", "failed"))
    check(driver.find_element(By.ID, "uploads").get_attribute("data-state") == "done", "the new version is uploaded")
    driver.find_element(By.ID, "refresh").click()
    wait.until(lambda d: thumbnails_loaded() == len(images) - 1)
    driver.find_element(By.XPATH, "//ul[@class='grid']//a[span='%s']" % second).click()
    wait_h1(second)
    check(sha256_of(new_version) in driver.find_element(By.CSS_SELECTOR, "table.details").text, "the new version is current")
    rows = version_rows()
    check(len(rows) == 2, "two versions listed: %d" % len(rows))
    newer_id = rows[0].get_attribute("data-version")
    older_id = rows[1].get_attribute("data-version")
    check(rows[0].get_attribute("data-current") == "true", "the newest version is the current one")
    download = rows[1].find_element(By.LINK_TEXT, "Download")
    check(download.get_dom_attribute("download") is not None, "the old version's link downloads")
    check(sha256_in_browser(download.get_attribute("href")) == sha256_of(images[1]), "the old version downloads as it was")
    shot_of_versions("versions")
    accessible("versions")

    # Make the old version current again: a copy of it on top.
    rows[1].find_element(By.XPATH, ".//button[text()='Make current']").click()
    accept_confirmation()
    wait.until(lambda d: "is current again" in d.find_element(By.CSS_SELECTOR, "p.notice").text)
    check(sha256_of(images[1]) in driver.find_element(By.CSS_SELECTOR, "table.details").text, "the old content is current")
    wait.until(lambda d: len(version_rows()) == 3)
    wait.until(lambda d: d.execute_script("const i = document.querySelector('.preview img'); return i && i.complete && i.naturalWidth > 0"))
    shot_of_versions("version-restored")

    # Delete the newer version for good.
    row = driver.find_element(By.CSS_SELECTOR, "#versions tr[data-version='%s']" % newer_id)
    row.find_element(By.XPATH, ".//button[text()='Delete for good']").click()
    accept_confirmation()
    wait.until(lambda d: "permanently" in d.find_element(By.CSS_SELECTOR, "p.notice").text)
    ids = [r.get_attribute("data-version") for r in version_rows()]
    check(len(ids) == 2 and newer_id not in ids and older_id in ids, "the newer version is gone for good: %s" % ids)
    shot_of_versions("version-deleted")

    # The operations page draws live charts.
    driver.find_element(By.LINK_TEXT, "Operations").click()
    wait_h1("Operations")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#now tbody tr")) >= 4)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#disk tbody tr")) >= 1)
    # S3 traffic while the page watches: the requests/s it shows rises above zero.
    for _ in range(40):
        try:
            fetch(signed_url)
        except Exception:
            pass  # the object is deleted: 404s count as requests (and errors) too
        time.sleep(0.1)
    wait.until(lambda d: float(d.find_element(By.CSS_SELECTOR, "#now tbody tr td").text) > 0)
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#now tbody tr:nth-child(2) td").text not in ("", "–"))
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#now tbody tr:nth-child(3) td").text not in ("", "–"))
    for row in driver.find_elements(By.CSS_SELECTOR, "#now tbody tr")[1:3]:
        label, value = row.find_element(By.TAG_NAME, "th").text, row.find_element(By.TAG_NAME, "td").text
        number, _, unit = value.partition(" ")
        digits = number.replace(".", "").lstrip("0")
        check(label.startswith("Latency p") and unit in ("ms", "s") and len(digits) <= 3,
              "%s is rounded for people, with its unit: %r" % (label, value))
    check("No backup is running" in driver.find_element(By.ID, "backups").text,
          "an empty checkpoint table says so: %r" % driver.find_element(By.ID, "backups").text)
    check("No backup run has been reported yet" in driver.find_element(By.ID, "backupjob").text,
          "the backup job's table says no run was reported: %r" % driver.find_element(By.ID, "backupjob").text)
    wait.until(lambda d: d.find_element(By.ID, "backuphistorystate").get_attribute("data-state") == "read")
    check("No backup has run yet" in driver.find_element(By.ID, "backuphistory").text,
          "an empty history says so: %r" % driver.find_element(By.ID, "backuphistory").text)
    shot("operations")
    accessible("operations")
    header_fits_at(420, "operations")
    errors = browser_errors()
    check(not errors, "the pages logged no error (the icon included): %s" % errors)

    # A request without the CSRF token is refused, even from the signed-in page.
    check(browser_request("POST", "/console/buckets/%s/delete" % bucket, "x=1", with_token=False) == 403,
          "a request without the CSRF token is refused")

    # Sign out.
    driver.find_element(By.XPATH, "//button[text()='Sign out']").click()
    wait_h1("Sign in")
    driver.get(base + "/console/buckets")
    wait_h1("Sign in")
    shot("signed-out")

    # A read-only key sees no upload and no delete, and the server refuses forged requests.
    sign_in(reader, reader_secret)
    check(not driver.find_elements(By.ID, "newBucket"), "a reader is offered no bucket creation")
    check(not driver.find_elements(By.LINK_TEXT, "Operations"), "a reader is offered no operations page")
    driver.find_element(By.LINK_TEXT, bucket).click()
    wait_h1(bucket)
    check(not driver.find_elements(By.ID, "files"), "a reader sees no upload button")
    wait.until(lambda d: thumbnails_loaded() == len(images) - 1)
    shot("reader-bucket")
    accessible("reader-bucket")
    driver.find_element(By.XPATH, "//ul[@class='grid']//a[span='%s']" % second).click()
    wait_h1(second)
    check(not driver.find_elements(By.XPATH, "//button[text()='Delete object']"), "a reader sees no delete button")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#versions a.download")) == 2, "a reader may download each version")
    check(not driver.find_elements(By.CSS_SELECTOR, "#versions button"), "a reader is offered no action on versions")
    shot("reader-details")
    accessible("reader-details")
    version_form = "key=%s&versionId=%s" % (second, older_id)
    forged = {
        "make version current": browser_request("POST", "/console/b/%s/object/version/restore" % bucket, version_form),
        "delete version": browser_request("POST", "/console/b/%s/object/version/delete" % bucket, version_form),
        "versioning": browser_request("POST", "/console/buckets/%s/versioning" % bucket, "status=Suspended"),
        "upload": browser_request("PUT", "/console/api/b/%s/objects?key=forged.png" % bucket, "not really"),
        "delete object": browser_request("POST", "/console/b/%s/object/delete" % bucket, "key=" + second),
        "delete bucket": browser_request("POST", "/console/buckets/%s/delete" % bucket, "x=1"),
        "public read": browser_request("POST", "/console/buckets/%s/public" % bucket, "on=true"),
        "operations": browser_request("GET", "/console/api/ops", None),
    }
    check(all(status == 403 for status in forged.values()), "forged requests of a reader are refused: %s" % forged)
    driver.get(base + "/console/b/%s" % bucket)
    wait.until(lambda d: thumbnails_loaded() == len(images) - 1)
    print(json.dumps({"ok": True, "forged": forged, "accessibility": checked_pages, "screenshots": shot_number[0]}))
except Exception:
    shot("failure")
    print("page at failure:", driver.current_url, file=sys.stderr)
    raise
finally:
    driver.quit()
