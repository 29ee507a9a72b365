#!/usr/bin/env python3
"""How fast `smokescreen serve` answers: `script/serve-latency.py TOOL [N]` serves card-expand with TOOL (a
built `smokescreen`, run from its checkout) on a free port, asks once for the listing, a @2x frame and the
page's script (so the frame is cached), then times N requests of each on one kept-alive connection and
N/4 on a new connection each, and prints the medians in ms and how long Ctrl-C took."""
import http.client, statistics, subprocess, sys, time, re, os

tool, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200
proc = subprocess.Popen([tool, "serve", "assets/scenes/card-expand.json", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(tool)))))
line = proc.stdout.readline()
port = int(re.search(r":(\d+)/", line).group(1))
try:
    c = http.client.HTTPConnection("127.0.0.1", port)
    c.request("GET", "/api/transitions"); import json; name = json.loads(c.getresponse().read())["transitions"][0]["name"]
    paths = ["/api/transitions", f"/api/transitions/{name}/frames/10.png?scale=2", "/preview.js"]
    for p in paths:  # warm: the render and the encoded frame are cached
        c.request("GET", p); c.getresponse().read()
    for p in paths:
        kept, fresh = [], []
        for _ in range(n):
            t = time.perf_counter(); c.request("GET", p); r = c.getresponse(); body = r.read(); kept.append(time.perf_counter() - t)
        for _ in range(n // 4):
            t = time.perf_counter(); f = http.client.HTTPConnection("127.0.0.1", port); f.request("GET", p); f.getresponse().read(); f.close()
            fresh.append(time.perf_counter() - t)
        print(f"{p}: {len(body)} bytes, kept-alive median {statistics.median(kept)*1000:.3f} ms, new connection {statistics.median(fresh)*1000:.3f} ms")
finally:
    proc.send_signal(2)
    t = time.perf_counter(); proc.wait(); print(f"Ctrl-C to exit: {(time.perf_counter()-t)*1000:.0f} ms, status {proc.returncode}")
