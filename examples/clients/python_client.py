#!/usr/bin/env python3
"""A jgrid-local client with only the Python standard library.

Submits the ROCm inference example, polls it to the end while printing new
log lines with the cursor, then downloads its artifact through the signed URL.
    jgrid-local serve --ephemeral &   then   python3 examples/clients/python_client.py
JUNGLE_GRID_API (default http://127.0.0.1:8420) points elsewhere.
"""
import json
import os
import pathlib
import sys
import time
import urllib.error
import urllib.request

API = os.environ.get("JUNGLE_GRID_API", "http://127.0.0.1:8420").rstrip("/")
TERMINAL = {"completed", "failed", "rejected", "cancelled"}


class ApiError(Exception):
    """The server's error envelope: {"ok": false, "error": {code, message}}."""


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(API + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        envelope = json.load(error)["error"]
        raise ApiError(f"{envelope['code']}: {envelope['message']}") from None


def main():
    here = pathlib.Path(__file__).resolve().parent
    spec = json.loads((here.parent / "jobs" / "rocm-inference.json").read_text())
    job = call("POST", "/v1/jobs", spec)
    job_id = job["job_id"]
    print(f"submitted {job_id} ({job['status']})")

    cursor = None
    while True:
        job = call("GET", f"/v1/jobs/{job_id}")
        query = f"?cursor={cursor}" if cursor else ""
        page = call("GET", f"/v1/jobs/{job_id}/logs{query}")
        for entry in page["items"]:
            print(f"  [{entry['stream']}] {entry['message']}")
        cursor = page["next_cursor"] or cursor
        if job["status"] in TERMINAL and not page["has_more"]:
            break
        time.sleep(0.2)
    print(f"job {job_id} {job['status']} (exit {job['exit_code']}) on {job.get('gpu', {}).get('name', '?')}")
    if job["status"] != "completed":
        return 1

    artifact = call("GET", f"/v1/jobs/{job_id}/artifacts")["artifacts"][0]
    link = call("POST", f"/v1/jobs/{job_id}/artifacts/{artifact['artifact_id']}/download", {})
    with urllib.request.urlopen(link["url"], timeout=30) as response:  # signed: no bearer needed
        content = response.read()
    print(f"downloaded {artifact['filename']}: {len(content)} bytes")

    try:
        call("GET", "/v1/jobs/job_does_not_exist")
    except ApiError as error:
        print(f"errors carry a code: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
