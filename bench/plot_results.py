"""Plots of the Lorenz benchmark's JSON (lorenz_bench --json; bench/peers/lorenz_peers.py and
cubie_peers.py --json) as PNG files:

  time_vs_n.png         e2e time against N, per package: fixed RK4 and adaptive Tsit5
  ratio_to_hand.png     the library's time over the hand-written kernel's, e2e and kernel
  work_precision.png    error against time over a tolerance sweep at one N

  python3 bench/plot_results.py --sweep bench/results/lorenz_sweep.json \
      --peers bench/results/peers_sweep.json bench/results/cubie_peers_sweep.json \
      --work-precision bench/results/lorenz_work_precision.json \
      --peers-work-precision bench/results/peers_work_precision.json --out bench/results
"""

import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return json.load(f)


def series(rows, method, key):
    picked = sorted((r["n"], r[key]) for r in rows if r["method"] == method and key in r)
    return [n for n, _ in picked], [v for _, v in picked]


def peer_label(peer, package):
    return f"{package} {peer['version']} (PyPI)" if "version" in peer else package


def time_vs_n(sweep, peers, out):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    # One colour per peer in both panels (C0 and C1 are the library and the hand-written kernel).
    labels = sorted({peer_label(p, r["package"]) for p in peers for r in p["rows"]})
    colour = {label: f"C{k + 2}" for k, label in enumerate(labels)}
    for ax, method, title in ((axes[0], "classical_rk4 dt=2^-10", "fixed RK4, dt = 2^-10"),
                              (axes[1], "tsit5 tol=1e-05", "adaptive Tsit5, tol = 1e-5")):
        ax.loglog(*series(sweep["rows"], method, "library_e2e_ms"), "o-", label="CuBIE++")
        ax.loglog(*series(sweep["rows"], method, "hand_e2e_ms"), "s--", label="hand-written CUDA")
        for peer in peers:
            for package in sorted({r["package"] for r in peer["rows"]}):
                rows = [r for r in peer["rows"] if r["package"] == package]
                n, t = series(rows, method, "e2e_ms")
                label = peer_label(peer, package)
                if n:
                    ax.loglog(n, t, "^-", color=colour[label], label=label)
        ax.set_title(title)
        ax.set_xlabel("trajectories N")
        ax.set_ylabel("e2e ms (copies in, solve, copies out)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(f"Lorenz float32, final state only, {sweep['device']} (commit {sweep['commit']})")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "time_vs_n.png"), dpi=120)


def ratio_to_hand(sweep, out):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
    methods = sorted({r["method"] for r in sweep["rows"] if "hand_e2e_ms" in r})
    for ax, kind in ((axes[0], "e2e"), (axes[1], "kernel")):
        for method in methods:
            n, lib = series(sweep["rows"], method, f"library_{kind}_ms")
            _, hand = series(sweep["rows"], method, f"hand_{kind}_ms")
            ax.semilogx(n, [a / b for a, b in zip(lib, hand)], "o-", label=method)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(1.05, color="k", lw=0.8, ls=":")
        ax.set_title(f"{kind}: library / hand-written")
        ax.set_xlabel("trajectories N")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("time ratio (below 1: the library is faster)")
    axes[1].legend(fontsize=8)
    fig.suptitle(f"Ratio to the hand-written kernel, {sweep['device']} (commit {sweep['commit']})")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "ratio_to_hand.png"), dpi=120)


def work_precision(wp, peers_wp, out):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    families = {}
    for r in wp["rows"]:
        if " tol=" not in r["method"]:
            continue
        name, tol = r["method"].split(" tol=")
        families.setdefault(name, []).append((float(tol), r))
    for name, points in sorted(families.items()):
        points.sort()
        axes[0].loglog([r["library_max_error"] for _, r in points],
                       [r["library_e2e_ms"] for _, r in points], "o-", label=f"CuBIE++ {name}")
        axes[1].loglog([t for t, _ in points], [r["library_e2e_ms"] for _, r in points], "o-",
                       label=f"CuBIE++ {name}")
        if name == "tsit5":
            axes[0].loglog([r["hand_max_error"] for _, r in points],
                           [r["hand_e2e_ms"] for _, r in points], "s--", label="hand-written tsit5")
            axes[1].loglog([t for t, _ in points], [r["hand_e2e_ms"] for _, r in points], "s--",
                           label="hand-written tsit5")
    if peers_wp:
        rows = sorted((float(r["method"].split(" tol=")[1]), r) for r in peers_wp["rows"]
                      if " tol=" in r["method"])
        axes[1].loglog([t for t, _ in rows], [r["e2e_ms"] for _, r in rows], "^-",
                       label="jax+diffrax tsit5")
    axes[0].set_xlabel("max error of the final states against float64")
    axes[0].set_ylabel("e2e ms")
    axes[0].set_title("work-precision")
    axes[1].set_xlabel("atol = rtol")
    axes[1].set_title("time against tolerance")
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    n = wp["rows"][0]["n"]
    fig.suptitle(f"Lorenz float32 at N = {n}, tolerances 1e-2 to 1e-8, {wp['device']} "
                 f"(commit {wp['commit']})")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "work_precision.png"), dpi=120)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sweep", required=True)
    p.add_argument("--peers", required=True, nargs="+")
    p.add_argument("--work-precision", required=True)
    p.add_argument("--peers-work-precision")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    sweep, peers = load(a.sweep), [load(path) for path in a.peers]
    time_vs_n(sweep, peers, a.out)
    ratio_to_hand(sweep, a.out)
    work_precision(load(a.work_precision),
                   load(a.peers_work_precision) if a.peers_work_precision else None, a.out)


if __name__ == "__main__":
    main()
