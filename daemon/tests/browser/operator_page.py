#!/usr/bin/env python3
"""Drives the operator page of a running `checkerbot sim --operator ADDR --games 0` in headless
Chromium through chromedriver's WebDriver API (plain HTTP: no Selenium, nothing downloaded).

    operator_page.py URL OUT_DIR

Checks that the page shows the board, that it updates after a move, that a click on "New game"
starts a new game, and that the page's Content-Security-Policy blocks nothing it does; saves
screenshots (desktop and phone width) in OUT_DIR. Exits non-zero
with what went wrong.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1400",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    def __init__(self, driver_port, user_data):
        self.base = f"http://127.0.0.1:{driver_port}"
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": FLAGS + [f"--user-data-dir={user_data}"],
            },
            # The console, to see what the page's Content-Security-Policy blocked.
            "goog:loggingPrefs": {"browser": "ALL"},
        }
        session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        self.session = f"/session/{session['sessionId']}"

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"WebDriver {method} {path}: {err.read().decode()}") from err

    def go(self, url):
        self.call("POST", self.session + "/url", {"url": url})

    def js(self, script):
        return self.call("POST", self.session + "/execute/sync", {"script": script, "args": []})

    def click(self, css):
        found = self.call(
            "POST", self.session + "/element", {"using": "css selector", "value": css}
        )
        element = next(iter(found.values()))
        self.call("POST", f"{self.session}/element/{element}/click", {})

    def screenshot(self, path):
        png = self.call("GET", self.session + "/screenshot")
        with open(path, "wb") as out:
            out.write(base64.b64decode(png))
        print(f"screenshot: {path}")

    def console(self):
        """The browser's console messages since the last call."""
        return self.call("POST", self.session + "/se/log", {"type": "browser"})

    def resize(self, width, height):
        self.call("POST", self.session + "/window/rect", {"width": width, "height": height})

    def quit(self):
        try:
            self.call("DELETE", self.session)
        except Exception:  # the browser may already be gone
            pass


def wait_for(what, check, timeout=45):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def run(browser, url, out_dir):
    browser.go(url)
    squares = wait_for(
        "the board's 32 dark squares",
        lambda: browser.js("return document.querySelectorAll('#board-engine .sq.dark').length") == 32,
    )
    assert squares
    pieces = browser.js("return document.querySelectorAll('#board-engine .piece').length")
    print(f"board shown: 32 dark squares, {pieces} pieces")

    # The simulated visitor and the robot play: the move list grows without a reload.
    start = browser.js("return document.querySelectorAll('#moves li').length")
    wait_for(
        "a move to appear on the page",
        lambda: browser.js("return document.querySelectorAll('#moves li').length") > start,
    )
    moves = browser.js("return [...document.querySelectorAll('#moves li')].map(li => li.textContent)")
    print(f"the page updated after a move: {moves}")
    wait_for(
        "the sensor board to show the scan",
        lambda: browser.js("return document.querySelectorAll('#board-sensors .sensed').length") > 0,
    )
    browser.screenshot(os.path.join(out_dir, "operator-desktop.png"))

    # "New game": accepted at the visitor's turn (the robot refuses while its arm moves, and
    # the page disables the button then); the people set up the board and game 2 starts.
    def click_new_game():
        if browser.js("return document.getElementById('new-game').disabled"):
            return False
        browser.click("#new-game")
        time.sleep(0.3)
        toast = browser.js("return document.getElementById('toast').textContent")
        print(f"clicked New game: {toast}")
        return "ended" in toast

    wait_for("the New game button to be accepted", click_new_game, timeout=60)
    wait_for(
        "game 2 to start",
        lambda: browser.js("return document.getElementById('game-line').dataset.game") == "2",
    )
    print("a new game started: " + browser.js("return document.getElementById('game-line').textContent"))
    browser.screenshot(os.path.join(out_dir, "operator-new-game.png"))

    browser.resize(390, 1500)
    time.sleep(0.5)
    width = browser.js("return document.documentElement.scrollWidth")
    assert width <= 400, f"the phone layout is {width} px wide: it scrolls sideways"
    browser.screenshot(os.path.join(out_dir, "operator-phone.png"))

    # The page's own Content-Security-Policy blocked nothing it does.
    blocked = [m["message"] for m in browser.console() if "Content Security Policy" in m["message"]]
    assert not blocked, f"the policy blocked part of the page: {blocked}"
    print("the page's policy blocked nothing")


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
    print("operator page: all checks passed")


if __name__ == "__main__":
    main()
