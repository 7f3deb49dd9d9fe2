#!/usr/bin/env python3
"""Screenshots a Home Assistant page in headless Chromium once it shows every text asked for:
Chromium is driven over its DevTools protocol (aiohttp, from HA's own venv), because HA's
frontend keeps a websocket open and Chromium's --screenshot never sees the page settle. The
texts are looked for through the frontend's shadow roots. Exits 1 naming the texts missing
after the deadline (and still writes what the page showed).

Usage: ha_screenshot.py URL OUT.png TEXT [TEXT ...]   (env HA_SCREENSHOT_TIMEOUT, seconds)
"""
import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import aiohttp

# Every text under the page's shadow roots, as one string.
DEEP_TEXT = """(() => {
  const out = [];
  const walk = (n) => {
    if (n.shadowRoot) walk(n.shadowRoot);
    for (const c of n.childNodes) {
      if (c.nodeType === 3) out.push(c.textContent); else walk(c);
    }
  };
  walk(document);
  return out.join(' ');
})()"""


async def main():
    url, out, texts = sys.argv[1], sys.argv[2], sys.argv[3:]
    deadline = time.monotonic() + float(os.environ.get("HA_SCREENSHOT_TIMEOUT", "90"))
    profile = tempfile.mkdtemp()
    browser = subprocess.Popen(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         f"--user-data-dir={profile}", "--window-size=1280,1700", "--remote-debugging-port=0",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.monotonic() > deadline or browser.poll() is not None:
                sys.exit("chromium did not open its DevTools port")
            await asyncio.sleep(0.1)  # polls the port file, bounded
        port = int(open(port_file).read().split()[0])
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/json/list") as r:
                page = next(t for t in await r.json() if t["type"] == "page")
            async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                ids = iter(range(1, 1 << 30))

                async def call(method, **params):
                    i = next(ids)
                    await ws.send_str(json.dumps({"id": i, "method": method, "params": params}))
                    async for msg in ws:
                        data = json.loads(msg.data)
                        if data.get("id") == i:
                            return data.get("result", {})
                    raise RuntimeError("DevTools closed")

                await call("Page.enable")
                await call("Page.navigate", url=url)
                missing = texts
                while True:
                    r = await call("Runtime.evaluate", expression=DEEP_TEXT, returnByValue=True)
                    text = r.get("result", {}).get("value") or ""
                    missing = [t for t in texts if t not in text]
                    if not missing or time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.25)  # polls the page, bounded
                shot = await call("Page.captureScreenshot", format="png")
                with open(out, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                if missing:
                    sys.exit("missing on the page: " + ", ".join(missing))
    finally:
        browser.terminate()
        browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
