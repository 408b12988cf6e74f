"""Load test of the HTTP service on loopback: N concurrent clients posting 12 MP photos for a fixed time.

    .venv/bin/python bench/bench_api.py                       # 8 clients x 60 s on /v1/score, then an overload phase
    .venv/bin/python bench/bench_api.py --duration 20 --clients 4 --overload-duration 0
    .venv/bin/python bench/bench_api.py --url http://host:8000  # against a running service (no memory figure)

Starts ``uvicorn api.main:app`` in a subprocess (settings from MAHJONG_* variables, as ``make serve``), makes a
12 MP JPEG from a fixture photo of a winning hand (upscaled, with sensor-like noise so it has a phone photo's size and decode cost),
and prints throughput, p50/p90/p99 latency, status counts, errors (anything but 200, and 503 outside the overload
phase) and the server's peak resident memory (VmHWM). The overload phase sends more clients than the queue admits
and checks that the excess gets 503 + Retry-After quickly instead of waiting.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "api" / "fixtures" / "synth_2021.jpg"  # a rendered winning hand (fixtures/SOURCE.md)


def make_photo(width: int = 4000, height: int = 3000, quality: int = 92, seed: int = 0) -> bytes:
    base = Image.open(FIXTURE).convert("RGB").resize((width, height), Image.BICUBIC)
    pixels = np.asarray(base, dtype=np.int16)
    noise = np.random.default_rng(seed).normal(0, 6, pixels.shape).astype(np.int16)
    noisy = Image.fromarray(np.clip(pixels + noise, 0, 255).astype(np.uint8))
    buffer = io.BytesIO()
    noisy.save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``uvicorn api.main:app`` in a subprocess, with peak memory read from /proc."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "api.main:app", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-access-log", "--log-level", "warning"],
            cwd=ROOT, env={**os.environ, "MAHJONG_LOG_LEVEL": "WARNING", **env},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait_ready(self, timeout_s: float = 120) -> dict:
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.process.stderr.read()[-2000:]}")
            try:
                return httpx.get(self.url + "/healthz", timeout=2).json()
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def memory_mb(self) -> dict[str, float]:
        out = {}
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                key, _, value = line.partition(":")
                if key in ("VmHWM", "VmRSS"):
                    out[key] = int(value.split()[0]) / 1024
        except OSError:
            pass
        return out

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


def run_phase(url: str, photo: bytes, clients: int, duration_s: float, endpoint: str, api_key: str | None) -> dict:
    results: list[tuple[int, float, str | None]] = []  # (status, seconds, error code)
    stage_ms: dict[str, list[float]] = {}  # server-side timings of the successful requests
    lock = threading.Lock()
    stop_at = time.perf_counter() + duration_s
    headers = {"X-API-Key": api_key} if api_key else {}
    context = {"context": json.dumps({"rules": "mcr"}), "overlay": "true"} if endpoint == "/v1/score" else {}

    def client_loop() -> None:
        with httpx.Client(base_url=url, timeout=120, headers=headers) as client:
            while time.perf_counter() < stop_at:
                started = time.perf_counter()
                try:
                    response = client.post(endpoint, files={"image": ("photo.jpg", photo, "image/jpeg")}, data=context)
                    status = response.status_code
                    code = None
                    if status == 200:
                        with lock:
                            for stage, ms in (response.json().get("timings_ms") or {}).items():
                                stage_ms.setdefault(stage, []).append(ms)
                    else:
                        try:
                            code = response.json()["error"]["code"]
                        except Exception:  # noqa: BLE001 - a non-JSON error body is itself worth counting
                            code = "non_json_error"
                        if status == 503 and "retry-after" not in response.headers:
                            code = "503_without_retry_after"
                except httpx.HTTPError as error:
                    status, code = -1, type(error).__name__
                elapsed = time.perf_counter() - started
                with lock:
                    results.append((status, elapsed, code))
                if status == 503:
                    time.sleep(0.05)  # a polite client backs off a little before retrying

    threads = [threading.Thread(target=client_loop) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    ok = sorted(s for status, s, _ in results if status == 200)
    refused = sorted(s for status, s, _ in results if status == 503)

    def pct(values, q):
        return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1) if values else None

    return {
        "clients": clients, "seconds": round(wall, 1), "requests": len(results),
        "ok": len(ok), "throughput_ok_per_s": round(len(ok) / wall, 2),
        "latency_ms_ok": {"p50": pct(ok, 0.5), "p90": pct(ok, 0.9), "p99": pct(ok, 0.99),
                          "mean": round(1000 * statistics.fmean(ok), 1) if ok else None},
        "refused_503": len(refused), "latency_ms_503": {"p50": pct(refused, 0.5), "p99": pct(refused, 0.99)},
        "statuses": dict(Counter(str(status) for status, _, _ in results)),
        "error_codes": dict(Counter(code for _, _, code in results if code)),
        "server_stage_ms_median": {stage: round(statistics.median(v), 1) for stage, v in stage_ms.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running service (default: start one on loopback)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--endpoint", default="/v1/score", choices=["/v1/score", "/v1/recognize"])
    parser.add_argument("--overload-clients", type=int, default=24)
    parser.add_argument("--overload-duration", type=float, default=15, help="0 skips the overload phase")
    parser.add_argument("--width", type=int, default=4000)
    parser.add_argument("--height", type=int, default=3000)
    parser.add_argument("--api-key", default=os.environ.get("MAHJONG_API_KEY"))
    args = parser.parse_args(argv)

    photo = make_photo(args.width, args.height)
    print(f"photo: {args.width}x{args.height} = {args.width * args.height / 1e6:.1f} MP JPEG, {len(photo) / 1e6:.2f} MB")
    server = None
    if args.url:
        url = args.url
    else:
        server = Server({})
        url = server.url
    report: dict = {"photo_bytes": len(photo), "photo_megapixels": args.width * args.height / 1e6}
    try:
        health = server.wait_ready() if server else httpx.get(url + "/healthz", timeout=10).json()
        report["service"] = {"recognition": health["recognition"], "queue": health.get("queue")}
        if not health["recognition"]["available"]:
            print(f"recognition unavailable: {health['recognition']['detail']} (skipped: nothing to measure)")
            return 0
        if server:
            report["memory_mb_after_start"] = server.memory_mb()
        # One request first, untimed: the first call pays lazy initialisation that a long-running service does not.
        httpx.post(url + args.endpoint, files={"image": ("photo.jpg", photo, "image/jpeg")}, timeout=120,
                   headers={"X-API-Key": args.api_key} if args.api_key else {})
        load = run_phase(url, photo, args.clients, args.duration, args.endpoint, args.api_key)
        # Within capacity, every request must succeed: any non-200 is an error here.
        load["errors"] = load["requests"] - load["ok"]
        report["load"] = load
        if args.overload_duration > 0:
            over = run_phase(url, photo, args.overload_clients, args.overload_duration, args.endpoint, args.api_key)
            over["errors"] = over["requests"] - over["ok"] - over["refused_503"]  # 503 is the intended answer here
            report["overload"] = over
        if server:
            report["memory_mb_peak"] = server.memory_mb()
    finally:
        if server:
            server.stop()
    print(json.dumps(report, indent=2))
    load = report["load"]
    print(f"\nload: {load['clients']} clients x {load['seconds']} s: {load['throughput_ok_per_s']} photos/s, "
          f"p50 {load['latency_ms_ok']['p50']} ms, p99 {load['latency_ms_ok']['p99']} ms, errors {load['errors']}")
    if "overload" in report:
        over = report["overload"]
        print(f"overload: {over['clients']} clients: {over['ok']} ok, {over['refused_503']} refused with 503 "
              f"(p50 {over['latency_ms_503']['p50']} ms), errors {over['errors']}")
    if "memory_mb_peak" in report:
        print(f"server peak RSS: {report['memory_mb_peak'].get('VmHWM', 0):.0f} MB")
    return 0 if load["errors"] == 0 and report.get("overload", {}).get("errors", 0) == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
