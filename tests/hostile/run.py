#!/usr/bin/env python3
"""Hostile inputs against the real server: every line of cases.jsonl is sent
as raw bytes over a new TCP connection to a `jgrid-local serve` process, and
the status (and error code) must be the expected one. Afterwards the server
still answers /healthz, its SQLite file passes PRAGMA integrity_check, and no
rejected submit created a job.

usage: run.py <jgrid-local binary> <cases.jsonl>
"""
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

KEY = "jg_hostile_key_0001"
REVOKED = "jg_hostile_revoked1"
SERVICE = "svc_hostile_token_0001"


def start(binary, work):
    keys = os.path.join(work, "keys.json")
    with open(keys, "w") as f:
        json.dump({"keys": [
            {"key": KEY, "workspace": "w1", "scopes": ["jobs:write", "jobs:read"]},
            {"key": REVOKED, "workspace": "w1", "scopes": ["jobs:write"], "revoked": True}]}, f)
    data = os.path.join(work, "data")
    out = open(os.path.join(work, "serve.out"), "w")
    err = open(os.path.join(work, "serve.err"), "w")
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--data-dir", data, "--local", "off",
                             "--time-scale", "200", "--max-body", "65536", "--max-upload", "4096",
                             "--auth", "keys", "--keys-file", keys, "--service-token", SERVICE,
                             "--read-timeout", "2", "--header-timeout", "2"], stdout=out, stderr=err)
    for _ in range(400):
        with open(os.path.join(work, "serve.out")) as f:
            m = re.search(r"^jgrid-local ready url=http://([^:/]+):(\d+)", f.read(), re.M)
        if m:
            return proc, data, m.group(1), int(m.group(2))
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    sys.stderr.write(open(os.path.join(work, "serve.err")).read())
    raise SystemExit("FAIL: server did not start")


def exchange(host, port, payload, half_close=False):
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(payload)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def parse(response):
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.[01] (\d{3})", lines[0]) if lines and lines[0] else None
    status = int(m.group(1)) if m else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    try:
        doc = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        doc = None
    return status, headers, body, doc


def request(host, port, method, path, headers=None, body=b"", half_close=False, declared=None):
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body) if declared is None else declared}")
    payload = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    return parse(exchange(host, port, payload, half_close))


def generate(gen):
    kind = gen["kind"]
    if kind == "nest":
        depth = gen["depth"]
        inner = "[" * depth + "]" * depth
        return ('{"workload_type":"inference","image":"x","metadata":{"a":' + inner + '}}').encode()
    if kind == "big":
        return ('{"workload_type":"inference","name":"' + "a" * gen["size"] + '"}').encode()
    if kind == "map":
        entries = {f"K{i}": "v" for i in range(gen["count"])}
        body = {"workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest",
                "gpu_vendor": "amd", "command": "true", gen["field"]: entries}
        return json.dumps(body).encode()
    if kind == "bytes":
        return gen["text"].encode() * gen["count"]
    raise SystemExit(f"FAIL: unknown body generator {kind}")


def substitute(text, values):
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def case_request(case, values):
    headers = {}
    if case.get("auth", True):
        headers["Authorization"] = f"Bearer {KEY}"
    for name, value in case.get("headers", {}).items():
        headers[name] = substitute(value, values)
    if "body_gen" in case:
        body = generate(case["body_gen"])
    elif "body_hex" in case:
        body = bytes.fromhex(case["body_hex"])
    elif "body_json" in case:
        body = substitute(json.dumps(case["body_json"]), values).encode()
    else:
        body = substitute(case.get("body", ""), values).encode("utf-8", "surrogatepass")
    if "body" in case or "body_json" in case or "body_gen" in case or "body_hex" in case:
        headers.setdefault("Content-Type", "application/json")
    return headers, body


def run_case(host, port, case, values):
    if "raw" in case:
        payload = substitute(case["raw"], values).encode("latin-1")
        return parse(exchange(host, port, payload, case.get("half_close", False)))
    headers, body = case_request(case, values)
    return request(host, port, case["method"], substitute(case["path"], values), headers, body,
                   case.get("half_close", False), case.get("declared_length"))


def call_json(host, port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else b""
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    status, _, raw, doc = request(host, port, method, path, headers, data)
    if status >= 300:
        raise SystemExit(f"FAIL: setup {method} {path}: {status} {raw[:300]!r}")
    return doc


def setup(host, port):
    job = call_json(host, port, "POST", "/v1/jobs", {
        "workload_type": "inference", "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd",
        "command": "python infer.py", "expected_artifacts": ["/workspace/artifacts/result.json"]})
    job_id = job["job_id"]
    for _ in range(3000):
        if call_json(host, port, "GET", f"/v1/jobs/{job_id}")["status"] in ("completed", "failed"):
            break
        time.sleep(0.02)
    artifact_id = call_json(host, port, "GET", f"/v1/jobs/{job_id}/artifacts")["artifacts"][0]["artifact_id"]
    link = call_json(host, port, "POST", f"/v1/jobs/{job_id}/artifacts/{artifact_id}/download", {})
    signed = link["url"].split("://", 1)[1]
    signed = signed[signed.index("/"):]
    query = dict(p.split("=", 1) for p in signed.split("?", 1)[1].split("&"))
    ticket = call_json(host, port, "POST", "/v1/job-inputs", {"filename": "in.txt"})["upload"]
    upload = ticket["upload_url"].split("://", 1)[1]
    return {"job_id": job_id, "artifact_id": artifact_id, "signed_path": signed,
            "expires": query["expires"], "sig": query["sig"], "sig_upper": query["sig"].upper(),
            "input_id": ticket["input_id"], "upload_path": upload[upload.index("/"):],
            "upload_path_nosig": upload[upload.index("/"):].split("?", 1)[0],
            "revoked": REVOKED, "service": SERVICE}


def count_jobs(db):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT COUNT(*) FROM jobs").fetchone()[0]


def check(case, status, headers, body, doc):
    problems = []
    if status != case["expect"]:
        problems.append(f"status {status}, expected {case['expect']}")
    code = case.get("code")
    if code and (not isinstance(doc, dict) or doc.get("error", {}).get("code") != code):
        problems.append(f"error code {doc.get('error', {}).get('code') if isinstance(doc, dict) else None}, "
                        f"expected {code}")
    if case.get("message") and case["message"] not in body.decode("utf-8", "replace"):
        problems.append(f"message lacks {case['message']!r}")
    if case.get("absent") and case["absent"].lower() in str(headers).lower():
        problems.append(f"response headers contain {case['absent']!r}")
    if status >= 400 and status != 0 and not isinstance(doc, dict):
        problems.append("error response is not a JSON object")
    return problems


def main():
    binary, cases_path = sys.argv[1], sys.argv[2]
    cases = [json.loads(line) for line in open(cases_path) if line.strip() and not line.startswith("#")]
    if len(cases) < 40:
        raise SystemExit(f"FAIL: only {len(cases)} cases")
    work = tempfile.mkdtemp(prefix="jgrid-hostile-")
    proc = None
    try:
        proc, data, host, port = start(binary, work)
        values = setup(host, port)
        db = os.path.join(data, "jgrid.db")
        jobs_before = count_jobs(db)
        failures = 0
        for case in cases:
            status, headers, body, doc = run_case(host, port, case, values)
            problems = check(case, status, headers, body, doc)
            if problems:
                failures += 1
                print(f"FAIL {case['name']}: {'; '.join(problems)}; body: {body[:300]!r}")
            else:
                print(f"ok   {case['name']} -> {status}")
        status, _, _, doc = request(host, port, "GET", "/healthz")
        if status != 200 or not doc or doc.get("ok") is not True:
            failures += 1
            print(f"FAIL /healthz after the cases: {status}")
        if proc.poll() is not None:
            failures += 1
            print("FAIL the server exited")
        jobs_after = count_jobs(db)
        if jobs_after != jobs_before:
            failures += 1
            print(f"FAIL rejected submits created jobs: {jobs_before} before, {jobs_after} after")
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if integrity != "ok":
            failures += 1
            print(f"FAIL integrity_check: {integrity}")
        print(f"{len(cases)} hostile cases, {failures} failures; jobs {jobs_before} -> {jobs_after}; "
              f"integrity {integrity}")
        return 1 if failures else 0
    finally:
        if proc and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
