# SPDX-License-Identifier: GPL-3.0-or-later
"""HTTP conformance of CastDeck's media server from Python's own HTTP/1.1 client:
keep-alive, Range forms, If-Range, HEAD, OPTIONS, concurrent readers, traversal.
Usage: http_client.py MEDIA_URL FILE. Prints one line per check; exits 1 on the first failure."""

import hashlib
import http.client
import sys
import threading
import urllib.parse

url, path = sys.argv[1], sys.argv[2]
u = urllib.parse.urlsplit(url)
data = open(path, "rb").read()
size = len(data)


def check(cond, what):
    if not cond:
        print(f"FAIL: {what}")
        sys.exit(1)
    print(f"ok: {what}")


conn = http.client.HTTPConnection(u.hostname, u.port, timeout=20)


def req(method, target=u.path, headers=None):
    conn.request(method, target, headers=headers or {})
    r = conn.getresponse()
    return r, r.read()


r, body = req("GET", headers={"Range": "bytes=0-99"})
sock = conn.sock
check(r.status == 206 and body == data[:100] and r.getheader("Content-Range") == f"bytes 0-99/{size}", "bytes=0-99 → 206 with the first 100 bytes")
r, body = req("GET", headers={"Range": f"bytes={size - 10}-"})
check(r.status == 206 and body == data[-10:], "bytes=a- → 206 to the end")
r, body = req("GET", headers={"Range": "bytes=-7"})
check(r.status == 206 and body == data[-7:] and r.getheader("Content-Length") == "7", "suffix bytes=-7 → the last 7 bytes")
r, body = req("GET", headers={"Range": f"bytes={size}-"})
check(r.status == 416 and r.getheader("Content-Range") == f"bytes */{size}", "start past the end → 416 with bytes */SIZE")
r, body = req("GET", headers={"Range": "bytes=0-1,4-5"})
check(r.status == 200 and len(body) == size, "several ranges → the whole file with 200")
etag = r.getheader("ETag")
r, body = req("GET", headers={"Range": "bytes=0-9", "If-Range": etag})
check(r.status == 206 and len(body) == 10, "If-Range with the current ETag → 206")
r, body = req("GET", headers={"Range": "bytes=0-9", "If-Range": '"stale"'})
check(r.status == 200 and len(body) == size, "If-Range with another ETag → the whole file")
r, body = req("HEAD")
check(r.status == 200 and body == b"" and r.getheader("Content-Length") == str(size) and r.getheader("Accept-Ranges") == "bytes", "HEAD → headers only, right Content-Length")
r, body = req("OPTIONS", headers={"Origin": "https://www.gstatic.com", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range"})
allow = (r.getheader("Access-Control-Allow-Headers") or "").lower()
check(r.status in (200, 204) and r.getheader("Access-Control-Allow-Origin") == "*" and all(h in allow for h in ("content-type", "accept-encoding", "range"))
      and "GET" in (r.getheader("Access-Control-Allow-Methods") or ""), "OPTIONS preflight → CORS methods and headers")
check(conn.sock is sock, "all of the above on one keep-alive connection")
expose = (r.getheader("Access-Control-Expose-Headers") or "")
check("Content-Range" in expose, "Content-Range exposed to scripts")

token = u.path.split("/")[1]
for target, what in [
    (f"/{token}/../../../../etc/passwd", "dot-dot traversal"),
    (f"/{token}/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "percent-encoded traversal"),
    (f"/{token}/", "the token without a name"),
    (f"/{'0' * 32}/{u.path.split('/')[2]}", "a wrong token"),
    ("/", "the root"),
    (f"/{token}/{u.path.split('/')[2]}/x", "a path below the file"),
]:
    r, body = req("GET", target)
    check(r.status == 404 and data[:64] not in body, f"{what} → 404")
r, body = req("POST")
check(r.status == 405, "POST → 405")

results = [None] * 4


def reader(i):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    a, b = i * size // 4, (i + 1) * size // 4 - 1
    c.request("GET", u.path, headers={"Range": f"bytes={a}-{b}"})
    resp = c.getresponse()
    results[i] = (resp.status, hashlib.sha256(resp.read()).hexdigest() == hashlib.sha256(data[a:b + 1]).hexdigest())
    c.close()


threads = [threading.Thread(target=reader, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
check(all(r == (206, True) for r in results), "4 concurrent range readers get the right bytes")
