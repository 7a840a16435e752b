"""What every browser script of volkhv/tests/web shares: a process that
talks to loopback only, a watchdog, progress lines, headless Chromium over
the system chromedriver, and navigation. Each script keeps its own pages
and checks.
"""

import faulthandler
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException

TIMEOUT = 30
STARTED = time.time()


def isolate():
    """Call first. A watchdog well inside the Rust side's deadline, so that
    a hang ends with every thread's stack on stderr rather than with a
    silent kill; and loopback only: a proxy from the environment (a CI
    machine's, for its package downloads) would get Selenium's commands to
    chromedriver and urllib's to the server, and one that never answers
    hangs them with no timeout at all."""
    faulthandler.dump_traceback_later(int(os.environ.get("VOLKHV_BROWSER_WATCHDOG", "240")), exit=True)
    for var in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        os.environ.pop(var, None)
    os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    # Selenium's commands have no timeout of their own but the socket default.
    socket.setdefaulttimeout(4 * TIMEOUT)


def log(step):
    """Progress on stderr, so that a failure shows how far the script got."""
    print("[%6.1fs] %s" % (time.time() - STARTED, step), file=sys.stderr, flush=True)


def chromium(shots, name, page_load_timeout=TIMEOUT, phone=None, lang=None):
    """Headless Chromium; chromedriver's log goes to SHOTS/chromedriver-NAME.log.
    `phone=(width, height)` emulates a phone of that size (touch, device
    pixel ratio 3) instead of a desktop window. `lang` ("ru", "kk"): the
    browser's language (navigator.languages and Accept-Language)."""
    opts = webdriver.ChromeOptions()
    if lang:
        opts.add_argument("--lang=" + lang)
        opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
    if phone:
        opts.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": phone[0], "height": phone[1], "pixelRatio": 3.0, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                         "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
        })
    opts.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--disable-quic", "--no-proxy-server",
                "--window-size=1280,900", "--user-data-dir=" + tempfile.mkdtemp()):
        opts.add_argument(arg)
    # The page's console, for the scripts that check that a page load logs
    # no error.
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The board is ready when its data-fen is set, which the scripts wait
    # for; waiting for the load event as well once stalled a navigation for
    # the whole page-load timeout in CI (the renderer never reported it).
    opts.page_load_strategy = "eager"
    service = Service("/usr/bin/chromedriver", log_output=os.path.join(shots, "chromedriver-%s.log" % name))
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_page_load_timeout(page_load_timeout)
    driver.set_script_timeout(TIMEOUT)
    return driver


def navigate(driver, url):
    """`driver.get(url)`, once. A page that never loads is a defect of the
    server (it was one: idle connections of the browser held the old
    server's threads, issue 53), not something to try again."""
    try:
        return driver.get(url)
    except TimeoutException as e:
        raise AssertionError("the page never loaded: %s (%s)" % (url, e.msg.splitlines()[0]))


class Server:
    """`volkhv serve --port PORT ARGS` (PORT 0: any free one), its address
    read from the first line it prints (`listening on http://…`)."""

    def __init__(self, binary, *args, port=0):
        self.proc = subprocess.Popen([binary, "serve", "--port", str(port), *args],
                                     stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        first = self.proc.stdout.readline().decode().strip()
        assert first.startswith("listening on http://"), first
        self.shown = first[len("listening on "):]
        self.url = self.shown.split("?")[0].replace("0.0.0.0", "127.0.0.1")
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        log("server at " + self.shown)

    def api(self, method, path, body=None):
        """A JSON request to the API; the parsed reply."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            return json.loads(r.read().decode())

    def kill(self):
        """SIGKILL: no chance to tidy up."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        """SIGTERM: the server saves its games and exits."""
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait()


def wait_until(driver, what, pred, failure_png, message=lambda: "", timeout=TIMEOUT):
    """Polls `pred` until it gives something true; a page being redrawn
    (stale or missing elements) counts as not yet. On timeout: a screenshot
    and an AssertionError naming `what` and the page's `message()`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            v = pred()
        except (StaleElementReferenceException, NoSuchElementException):
            v = None
        if v:
            return v
        time.sleep(0.05)
    driver.save_screenshot(failure_png)
    raise AssertionError("timed out waiting for " + what + "; message: " + message())


def click(driver, css):
    """Clicks the element `css` finds; a page redrawn under the click (a
    stale element) is looked up again."""
    for _ in range(5):
        try:
            return driver.find_element("css selector", css).click()
        except StaleElementReferenceException:
            time.sleep(0.1)
    return driver.find_element("css selector", css).click()


def print_check(variant, before, mv, after):
    """A move the page showed, for the Rust side to check with movegen."""
    print("CHECK " + json.dumps({"variant": variant, "before": before, "move": mv, "after": after}), flush=True)
