#!/usr/bin/env python3
# browse.py CHROMIUM WIDTH HEIGHT PAGE.html...: loads each page from its file:// URL in one
# headless browser (one start for all: starting is what takes the time) and writes, beside
# each PAGE.html, PAGE.dom (the document as the browser built it), PAGE.png (a screenshot of a
# WIDTHxHEIGHT window) and PAGE.log (every console message and log entry, one a line: errors,
# blocked loads, script output). Talks to the browser over the DevTools protocol on a pipe (its
# fds 3 and 4), no network port. Exit 1 with a message when the browser fails or takes more
# than two minutes in all.
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile

TIMEOUT = 120


class Browser:
    def __init__(self, exe, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # the pipes may be 3 or 4 already: copies first, then the two places
            r, w = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--user-data-dir=" + profile, "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-extensions",
             "--hide-scrollbars", "--remote-debugging-pipe", "about:blank"],
            close_fds=False, preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        want = self.send(method, params, session)
        while True:
            msg = self.read()
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, session):
        for i, msg in enumerate(self.events):
            if msg.get("method") == method and msg.get("sessionId") == session:
                del self.events[i]
                return msg
        while True:
            msg = self.read()
            if msg.get("method") == method and msg.get("sessionId") == session:
                return msg
            self.events.append(msg)


def console_lines(events, session):
    out = []
    for msg in events:
        if msg.get("sessionId") != session:
            continue
        p = msg.get("params", {})
        if msg.get("method") == "Log.entryAdded":
            e = p["entry"]
            out.append("log %s %s: %s" % (e.get("level"), e.get("source"), e.get("text")))
        elif msg.get("method") == "Runtime.consoleAPICalled":
            out.append("console %s: %s" % (p.get("type"), " ".join(
                str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif msg.get("method") == "Runtime.exceptionThrown":
            out.append("exception: %s" % p["exceptionDetails"].get("text"))
    return out


def browse(b, width, height, page):
    target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        b.call(domain + ".enable", session=s)
    b.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                   "deviceScaleFactor": 1, "mobile": False},
           session=s)
    b.events = []
    b.call("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=s)
    b.wait_event("Page.loadEventFired", s)
    root = b.call("DOM.getDocument", session=s)["root"]["nodeId"]
    dom = b.call("DOM.getOuterHTML", {"nodeId": root}, session=s)["outerHTML"]
    png = b.call("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
    log = console_lines(b.events, s)
    b.call("Target.closeTarget", {"targetId": target})
    stem = page[:-5] if page.endswith(".html") else page
    with open(stem + ".dom", "w", encoding="utf-8") as f:
        f.write(dom)
    with open(stem + ".png", "wb") as f:
        f.write(base64.b64decode(png))
    with open(stem + ".log", "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in log))


def main():
    exe, width, height, pages = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    signal.signal(signal.SIGALRM, lambda *_: sys.exit("browse.py: the browser took too long"))
    signal.alarm(TIMEOUT)
    with tempfile.TemporaryDirectory() as profile:
        b = Browser(exe, profile)
        try:
            for page in pages:
                browse(b, width, height, page)
            b.send("Browser.close")
        except (RuntimeError, OSError, KeyError) as e:
            sys.exit("browse.py: %s" % e)
        finally:
            try:
                b.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                b.proc.kill()
                b.proc.wait()


main()
