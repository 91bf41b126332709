#!/usr/bin/env python3
"""A tiny HTTP server for petlog's tests (python3 standard library only).

    test-http-server.py DIRECTORY

Binds 127.0.0.1 on a free port and prints that port alone on its first stdout line. Serves the files
of DIRECTORY (GET only, no listings) and counts the requests of every path; besides:

    /_hits              the counts so far, as JSON {"/path": n} (not counted itself)
    /_truncated/NAME    200 with the first half of NAME (a download cut off behind a proxy)
    /_html/ANYTHING     200 with an HTML maintenance page (a captive portal, an error page)
    /_empty/ANYTHING    200 with an empty body
    /_status/NNN        that HTTP status with a short text body
    /_slow/N/NAME       NAME after N seconds (a server that does not answer in time)

Stops when its stdin is closed (the test that started it ended) or on SIGTERM.
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else ".")
HITS = {}
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/octet-stream"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/_hits":
            with LOCK:
                body = json.dumps(HITS, sort_keys=True).encode()
            return self.send(200, body, "application/json")
        with LOCK:
            HITS[path] = HITS.get(path, 0) + 1
        if path.startswith("/_html/"):
            page = b"<!DOCTYPE html>\n<html><head><title>Maintenance</title></head><body><h1>Down for maintenance</h1><p>Back soon.</body></html>\n"
            return self.send(200, page, "text/html")
        if path.startswith("/_empty/"):
            return self.send(200, b"", "text/plain")
        if path.startswith("/_status/"):
            code = int(path.rsplit("/", 1)[1] or "500")
            return self.send(code, b"status %d\n" % code, "text/plain")
        if path.startswith("/_slow/"):
            _, _, seconds, rest = path.split("/", 3)
            time.sleep(float(seconds))
            path = "/" + rest
        truncated = path.startswith("/_truncated/")
        name = path[len("/_truncated/"):] if truncated else path.lstrip("/")
        file = os.path.realpath(os.path.join(ROOT, name))
        if not file.startswith(ROOT + os.sep) or not os.path.isfile(file):
            return self.send(404, b"not found\n", "text/plain")
        with open(file, "rb") as f:
            body = f.read()
        if truncated:
            body = body[: len(body) // 2]
        kind = "text/xml" if name.endswith(".xml") else "text/csv" if name.endswith(".csv") else "application/zip"
        return self.send(200, body, kind)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def watch_stdin():
        sys.stdin.read()
        server.shutdown()

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
