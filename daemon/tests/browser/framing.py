#!/usr/bin/env python3
"""Another web site against the operator page of a running `checkerbot sim --operator ADDR`,
in headless Chromium (the WebDriver client of operator_page.py).

    framing.py URL OUT_DIR

A test page served on another loopback port frames the operator page: the frame must stay
blank (its policy forbids framing), while the same test page frames one of its own pages, which
shows, so the check can see inside a frame. Then the page itself, opened as localhost, must show
the board with no Content-Security-Policy complaint in the browser's console. Saves a
screenshot of the framing attempt in OUT_DIR; exits non-zero with what went wrong.
"""

import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from operator_page import CHROMEDRIVER, CHROMIUM, Browser, free_port, wait_for  # noqa: E402

INNER = "<!doctype html><title>inner</title><p id=inner>the test site's own page</p>"


def framing_site(operator_url):
    """An HTTP server on a free loopback port: /attack frames the operator page, /control
    frames /inner, the site's own page."""

    pages = {
        "/attack": f'<!doctype html><title>attack</title><iframe id=frame src="{operator_url}" '
        'width=800 height=600></iframe>',
        "/control": '<!doctype html><title>control</title><iframe id=frame src="/inner" '
        "width=800 height=600></iframe>",
        "/inner": INNER,
    }

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write((body or "no such page").encode())

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def inside_frame(browser, script):
    """Runs `script` in the document of the page's #frame; back to the page after."""
    found = browser.call(
        "POST", browser.session + "/element", {"using": "css selector", "value": "#frame"}
    )
    browser.call("POST", browser.session + "/frame", {"id": found})
    try:
        return browser.js(script)
    finally:
        browser.call("POST", browser.session + "/frame/parent", {})


def run(browser, url, out_dir):
    server = framing_site(url)
    site = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        # The control: a frame of the site's own page shows, and the check sees it.
        browser.go(site + "/control")
        wait_for(
            "the test site's own page inside its frame",
            lambda: inside_frame(browser, "return document.getElementById('inner') !== null"),
        )
        print("control: a frame of the test site's own page shows")

        # The attack: the operator page in a frame of another site stays blank.
        browser.console()
        browser.go(site + "/attack")
        time.sleep(3)
        framed = inside_frame(
            browser,
            "return {url: location.href, board: document.querySelectorAll('#board-engine .sq').length,"
            " buttons: document.querySelectorAll('button').length,"
            " text: document.body ? document.body.innerText.slice(0, 200) : ''}",
        )
        browser.screenshot(os.path.join(out_dir, "framed.png"))
        print(f"the framed operator page: {framed}")
        assert framed["board"] == 0 and framed["buttons"] == 0, f"the frame shows the page: {framed}"
        assert "New game" not in framed["text"], f"the frame shows the controls: {framed}"
        refusals = [m["message"] for m in browser.console() if "frame" in m["message"].lower()]
        print(f"the browser's refusal: {refusals}")

        # The page itself, as localhost: the board shows, and the policy blocks nothing of it.
        port = urllib.parse.urlsplit(url).port
        browser.console()
        browser.go(f"http://localhost:{port}/")
        wait_for(
            "the board's 32 dark squares at localhost",
            lambda: browser.js("return document.querySelectorAll('#board-engine .sq.dark').length")
            == 32,
        )
        wait_for(
            "the live event stream",
            lambda: browser.js("return document.getElementById('link').textContent") == "live",
        )
        blocked = [m["message"] for m in browser.console() if "Content Security Policy" in m["message"]]
        assert not blocked, f"the policy blocked part of the page: {blocked}"
        print("the page at localhost shows the board, live, with nothing blocked")
    finally:
        server.shutdown()


def main():
    url, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(tool):
            sys.exit(f"{tool} is missing: run scripts/install-deps (Debian chromium, chromium-driver)")
    user_data = tempfile.mkdtemp(prefix="checkerbot-chromium-")
    port = free_port()
    driver = subprocess.Popen(
        [CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    browser = None
    try:
        browser = Browser(port, user_data)
        run(browser, url, out_dir)
    finally:
        if browser:
            browser.quit()
        driver.terminate()
        driver.wait(timeout=10)
        shutil.rmtree(user_data, ignore_errors=True)
    print("framing: all checks passed")


if __name__ == "__main__":
    main()
