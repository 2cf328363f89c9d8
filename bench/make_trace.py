#!/usr/bin/env python3
"""Writes a simulate trace (JSON Lines, docs/simulation.md §3) to stdout.

The same arguments always write the same trace. Jobs leave out `sim.stdout`,
as traces written by hand do, so the fake node prints its default output.

  make_trace.py --jobs 2000 --every 3 --burst 4          # ties: 4 jobs per instant
  make_trace.py --jobs 1000000 --every 0.01 --peak 3     # demand above capacity
  make_trace.py --jobs 5000 --faults --vendor mixed      # fault lines of every effect

--every S     seconds between arrivals (each arrival submits --burst jobs at one instant)
--minutes A,B run length drawn between A and B minutes
--gpus A,B    gpu_count drawn between A and B
--vendor      amd: AMD/ROCm jobs only; mixed: one in four asks for NVIDIA/CUDA
--peak F      arrivals in the middle third of the span come F times as often
--faults      adds one fault rule line of every effect, spread over the span
"""
import argparse
import json
import random
import sys

EFFECTS = ["node_lost", "start_error", "exit_code", "oom", "slow", "image_pull_failed", "ecc_error",
           "preempt", "rocm_userspace_missing", "no_gpu_visible", "gpu_isa_unsupported",
           "gpu_device_permission", "hip_out_of_memory", "cuda_on_amd", "oom_killed"]
AMD = {"workload_type": "training", "image": "ghcr.io/acme/pytorch-rocm:latest", "gpu_vendor": "amd",
       "runtime": "rocm", "command": "python train.py"}
NVIDIA = {"workload_type": "batch", "image": "nvidia/cuda:12.4.0-runtime-ubuntu22.04", "gpu_vendor": "nvidia",
          "command": "./run.sh"}


def pair(text, kind):
    low, high = (kind(part) for part in text.split(","))
    if low > high:
        raise argparse.ArgumentTypeError(f"expected LOW,HIGH with LOW <= HIGH, got {text}")
    return low, high


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, required=True)
    parser.add_argument("--every", type=float, default=1.0)
    parser.add_argument("--burst", type=int, default=1)
    parser.add_argument("--minutes", type=lambda t: pair(t, float), default=(10.0, 60.0))
    parser.add_argument("--gpus", type=lambda t: pair(t, int), default=(1, 4))
    parser.add_argument("--vendor", choices=["amd", "mixed"], default="amd")
    parser.add_argument("--peak", type=float, default=1.0)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


def arrival_times(args):
    """One arrival time per job; bursts share an instant, the middle third runs --peak times faster."""
    arrivals = (args.jobs + args.burst - 1) // args.burst
    third = arrivals // 3
    at, times = 0.0, []
    for arrival in range(arrivals):
        times.extend([round(at, 3)] * args.burst)
        at += args.every / (args.peak if third <= arrival < 2 * third else 1.0)
    return times[:args.jobs], at


def job(rng, args, index):
    body = dict(NVIDIA if args.vendor == "mixed" and rng.random() < 0.25 else AMD)
    body["name"] = f"job-{index}"
    body["gpu_count"] = rng.randint(*args.gpus)
    body["sim"] = {"duration_s": round(rng.uniform(*args.minutes) * 60, 1)}
    return body


def fault_lines(rng, span_s):
    lines = []
    for number, effect in enumerate(EFFECTS):
        rule = {"effect": effect, "probability": 0.05, "count": 20}
        if effect == "exit_code":
            rule["value"] = 3
        if effect == "slow":
            rule["value"] = 1.5
        lines.append({"at_s": round(span_s * (number + 1) / (len(EFFECTS) + 2), 3), "fault": rule})
    return lines


def main():
    args = arguments()
    rng = random.Random(args.seed)
    times, span = arrival_times(args)
    out = sys.stdout
    for index, at in enumerate(times):
        out.write(json.dumps({"at_s": at, "job": job(rng, args, index)}, separators=(",", ":")) + "\n")
    if args.faults:
        for line in fault_lines(rng, span):
            out.write(json.dumps(line, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
