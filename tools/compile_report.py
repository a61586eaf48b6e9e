#!/usr/bin/env python3
"""Compile report: what nvcc does with each CUDA translation unit and each kernel in it.

For every CUDA source of the chosen targets (read from the build's compile_commands.json),
recompiles it once, without ccache, with `nvcc --time` (seconds per compilation phase) and
`-Xptxas -v` (registers, spill stores and loads, stack frame, shared memory per kernel),
then prints a Markdown table: one row per translation unit with its phase times, and one
row per kernel with its resources and the theoretical occupancy on sm_90 at the block size
given by --block-size. The shared memory is what a kernel declares; the dynamic shared
memory a launch adds (core/thread_shared.hpp, the kernel report's shared_bytes) is not in
ptxas's report and not counted.

    tools/compile_report.py --build-dir build/default --filter lorenz_sweep_units \
        --output build/default/compile_report.md

Only translation units whose path contains every --filter string are compiled.
"""

import argparse
import csv
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

# Hopper (sm_90) per-multiprocessor limits.
SM90 = {
    "registers": 65536,
    "register_granularity": 256,  # registers are allocated per warp in units of 256
    "max_warps": 64,
    "max_blocks": 32,
    "shared_bytes": 228 * 1024,
}

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+)'")
FRAME = re.compile(
    r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USAGE = re.compile(r"Used (\d+) registers(?:, used \d+ barriers)?(?:, (\d+) bytes smem)?")


def theoretical_occupancy(registers, shared_bytes, block_size):
    """Resident warps per SM over the maximum, for one kernel at one block size."""
    warps_per_block = math.ceil(block_size / 32)
    per_warp = math.ceil(registers * 32 / SM90["register_granularity"]) * \
        SM90["register_granularity"]
    blocks = SM90["max_blocks"]
    if per_warp:
        blocks = min(blocks, SM90["registers"] // (per_warp * warps_per_block))
    if shared_bytes:
        blocks = min(blocks, SM90["shared_bytes"] // shared_bytes)
    blocks = min(blocks, SM90["max_warps"] // warps_per_block)
    return blocks * warps_per_block / SM90["max_warps"]


def demangle(names):
    if not names:
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                         text=True, check=True).stdout.splitlines()
    return dict(zip(names, out))


def template_arguments(text, opening):
    """The top-level arguments of the first template `opening` names ("cubie::dirk<")."""
    start = text.find(opening)
    if start < 0:
        return []
    depth, arguments, current = 1, [], ""
    for ch in text[start + len(opening):]:
        depth += (ch == "<") - (ch == ">")
        if depth == 0:
            break
        if ch == "," and depth == 1:
            arguments.append(current.strip())
            current = ""
        else:
            current += ch
    return arguments + [current.strip()]


def short_kernel_name(demangled):
    """The parts of a kernel instantiation that tell configurations apart."""
    parts = re.findall(
        r"cubie::(\w+_tableau|\w+_controller|fixed_step|(?:\w+::)*\w+<(?:float|double)>)",
        demangled)
    if lanes := re.search(r"cubie::on_lanes<.*?, (\d+)>", demangled):
        parts.append(f"{lanes.group(1)} lanes")  # threads per trajectory (on_lanes.hpp)
    # The methods' variants that keep values in shared memory (core/thread_shared.hpp).
    if template_arguments(demangled, "cubie::dirk<")[2:] == ["true"]:
        parts.append("stages in shared memory")
    if template_arguments(demangled, "cubie::rosenbrock<")[1:] == ["true"]:
        parts.append("factors in shared memory")
    if template_arguments(demangled, "cubie::implicit_runge_kutta<")[1:] == ["true"]:
        parts.append("complex factors in shared memory")
    if "balanced_kernel<" in demangled:
        parts.append("balanced")  # threads that take trajectories in turn (cuda.hpp)
    return ", ".join(dict.fromkeys(parts)) or demangled[:120]


def parse_ptxas(text):
    kernels, current = [], None
    for line in text.splitlines():
        if m := ENTRY.search(line):
            current = {"mangled": m.group(1), "arch": m.group(2), "registers": 0,
                       "stack": 0, "spill_stores": 0, "spill_loads": 0, "shared": 0}
            kernels.append(current)
        elif current and (m := FRAME.search(line)):
            current["stack"], current["spill_stores"], current["spill_loads"] = map(
                int, m.groups())
        elif current and (m := USAGE.search(line)):
            current["registers"] = int(m.group(1))
            current["shared"] = int(m.group(2) or 0)
    return kernels


def parse_time_csv(path):
    """nvcc --time rows: phase name and milliseconds; summed per phase."""
    phases = {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if len(row) < 8 or row[0].strip() == "source file name" or \
                    row[7].strip() != "ms":
                continue
            phase, ms = row[1].strip(), row[6].strip()
            try:
                phases[phase] = phases.get(phase, 0.0) + float(ms)
            except ValueError:
                continue
    return phases


def compile_unit(entry, workdir):
    args = shlex.split(entry["command"])
    if os.path.basename(args[0]) == "ccache":
        args = args[1:]
    out = args.index("-o")
    args[out + 1] = os.path.join(workdir, "unit.o")
    time_csv = os.path.join(workdir, "time.csv")
    if os.path.exists(time_csv):
        os.remove(time_csv)
    args += ["--time", time_csv, "-Xptxas", "-v"]
    start = time.monotonic()
    done = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"compile_report: compiling {entry['file']} failed:\n{done.stderr}")
    return wall, parse_time_csv(time_csv), parse_ptxas(done.stderr + done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default="build/default")
    parser.add_argument("--filter", action="append", default=[],
                        help="keep translation units whose path contains this (repeatable)")
    parser.add_argument("--block-size", type=int, default=256)
    parser.add_argument("--output", help="also write the Markdown report here")
    opts = parser.parse_args()

    commands_path = os.path.join(opts.build_dir, "compile_commands.json")
    try:
        with open(commands_path) as f:
            entries = json.load(f)
    except OSError as e:
        sys.exit(f"compile_report: cannot read {commands_path}: {e.strerror}; configure "
                 "with a preset first")
    units = [e for e in entries if e["file"].endswith(".cu")
             and all(s in e["file"] for s in opts.filter)]
    if not units:
        sys.exit("compile_report: no CUDA translation unit matches the filters")

    unit_rows, kernel_rows = [], []
    with tempfile.TemporaryDirectory() as workdir:
        for entry in sorted(units, key=lambda e: e["file"]):
            wall, phases, kernels = compile_unit(entry, workdir)
            name = os.path.relpath(entry["file"], opts.build_dir) \
                if entry["file"].startswith(os.path.abspath(opts.build_dir)) \
                else entry["file"]
            top = sorted(phases.items(), key=lambda p: -p[1])[:4]
            unit_rows.append((name, wall, ", ".join(f"{p} {ms / 1000:.2f}" for p, ms in top)))
            names = demangle([k["mangled"] for k in kernels])
            for k in kernels:
                k["name"] = short_kernel_name(names[k["mangled"]])
                k["unit"] = os.path.basename(name)
                k["occupancy"] = theoretical_occupancy(k["registers"], k["shared"],
                                                       opts.block_size)
                kernel_rows.append(k)
            print(f"compiled {name} in {wall:.1f} s", file=sys.stderr)

    lines = ["## Compile time per translation unit", "",
             "| translation unit | wall (s) | slowest phases (s) |", "|---|---|---|"]
    lines += [f"| {n} | {w:.1f} | {p} |" for n, w, p in unit_rows]
    lines += ["", f"## Kernels (sm_90, occupancy at {opts.block_size} threads per block)", "",
              "| kernel | unit | registers | spill stores / loads (B) | stack (B) | "
              "shared (B) | occupancy |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {k['name']} | {k['unit']} | {k['registers']} | {k['spill_stores']} / "
              f"{k['spill_loads']} | {k['stack']} | {k['shared']} | {k['occupancy']:.0%} |"
              for k in kernel_rows]
    report = "\n".join(lines) + "\n"
    print(report)
    if opts.output:
        with open(opts.output, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
