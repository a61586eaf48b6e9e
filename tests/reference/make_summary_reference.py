"""Reference series and window metrics for the summary-metric tests.

Three variables sampled at t_k = T0 + k S, k = 0..K (S = 0.05, T0 = 0.5, K = 400):
  x, v  a forced, damped Duffing oscillator x'' + 0.25 x' - x + x^3 = 0.3 cos(1.2 t),
        x(T0) = 0.5, v(T0) = 0, integrated by SciPy's DOP853 at rtol = atol = 1e-12 and
        evaluated at the sample times (slow: windows with no peak and with one);
  s     the analytic signal exp(-0.05 (t - T0)) sin(11 t) + 0.2 (fast: more peaks per
        window than the tests ask for).

Windows hold M = 50 samples: window w is k = w M + 1 .. (w + 1) M, sample 0 is history
only. Every metric is computed directly from the samples of its window with NumPy:
mean, std (ddof = 0), rms, max, min, max |x|; the times of the first 3 strict local maxima
x_{j-1} < x_j > x_{j+1} and minima; extremes of the central differences
(x_{j+1} - x_{j-1}) / 2S and (x_{j+1} - 2 x_j + x_{j-1}) / S^2. Samples with neighbours
are j = 1..K-1 (the last sample of the run is never a peak and has no derivative).

The script checks that every pair of neighbouring samples differs by far more than float
rounding, so that float and double find the same peaks.

Writes, beside this script:
  summary_series.csv   k,t,x,v,s
  summary_windows.csv  window,row,value   (row "<variable>.<output>", value nan where none)
Rerun: python3 tests/reference/make_summary_reference.py
"""

from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

T0 = 0.5
S = 0.05
M = 50
N_WINDOWS = 8
K = M * N_WINDOWS
N_PEAKS = 3
VARIABLES = ("x", "v", "s")


def duffing(t, y):
    x, v = y
    return [v, 0.3 * np.cos(1.2 * t) - 0.25 * v + x - x**3]


def sample_series():
    t = T0 + np.arange(K + 1) * S  # the same rounding as t0 + k S in C++
    sol = solve_ivp(duffing, (T0, t[-1]), [0.5, 0.0], method="DOP853", rtol=1e-12,
                    atol=1e-12, t_eval=t)
    assert sol.success, sol.message
    s = np.exp(-0.05 * (t - T0)) * np.sin(11.0 * t) + 0.2
    return t, {"x": sol.y[0], "v": sol.y[1], "s": s}


def check_float_margin(name, x):
    gaps = np.abs(np.diff(x))
    floor = 1e-5 * np.max(np.abs(x))
    assert gaps.min() > floor, f"{name}: neighbouring samples {gaps.min():.3g} apart"


def window_metrics(t, x):
    """{output: [value per window]} for one variable."""
    out = {}
    for w in range(N_WINDOWS):
        k = np.arange(w * M + 1, (w + 1) * M + 1)
        xw = x[k]
        values = {
            "mean": np.mean(xw),
            "std": np.std(xw),
            "rms": np.sqrt(np.mean(xw**2)),
            "max": np.max(xw),
            "min": np.min(xw),
            "max_magnitude": np.max(np.abs(xw)),
        }
        j = k[k <= K - 1]  # samples with both neighbours
        maxima = j[(x[j - 1] < x[j]) & (x[j] > x[j + 1])]
        minima = j[(x[j - 1] > x[j]) & (x[j] < x[j + 1])]
        for i in range(N_PEAKS):
            values[f"peak{i}"] = t[maxima[i]] if i < len(maxima) else np.nan
            values[f"negative_peak{i}"] = t[minima[i]] if i < len(minima) else np.nan
        dxdt = (x[j + 1] - x[j - 1]) / (2 * S)
        d2xdt2 = (x[j + 1] - 2 * x[j] + x[j - 1]) / S**2
        values["dxdt_max"] = np.max(dxdt)
        values["dxdt_min"] = np.min(dxdt)
        values["d2xdt2_max"] = np.max(d2xdt2)
        values["d2xdt2_min"] = np.min(d2xdt2)
        for name, value in values.items():
            out.setdefault(name, []).append(value)
    return out


def main():
    here = Path(__file__).parent
    t, series = sample_series()
    for name in VARIABLES:
        check_float_margin(name, series[name])

    with (here / "summary_series.csv").open("w") as f:
        f.write("k,t," + ",".join(VARIABLES) + "\n")
        for k in range(K + 1):
            row = [repr(float(t[k]))] + [repr(float(series[v][k])) for v in VARIABLES]
            f.write(f"{k}," + ",".join(row) + "\n")

    metrics = {v: window_metrics(t, series[v]) for v in VARIABLES}
    with (here / "summary_windows.csv").open("w") as f:
        f.write("window,row,value\n")
        for w in range(N_WINDOWS):
            for v in VARIABLES:
                for output, values in metrics[v].items():
                    f.write(f"{w},{v}.{output},{float(values[w])!r}\n")

    for v in VARIABLES:
        peaks = [sum(not np.isnan(metrics[v][f"peak{i}"][w]) for i in range(N_PEAKS))
                 for w in range(N_WINDOWS)]
        print(f"{v}: peaks found per window {peaks}")
    print(f"wrote {here / 'summary_series.csv'} and {here / 'summary_windows.csv'}")


if __name__ == "__main__":
    main()
