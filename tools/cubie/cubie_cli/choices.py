"""What a run file's [solver] and [outputs] can select: the library's methods, step
controllers, precisions and summary metrics, by the names the run file uses, with the C++
types they compile to (all exported by cubie/cubie.hpp)."""

import re

# Method name -> whether it has an embedded error estimate (adaptive controllers need one).
METHODS = {
    # explicit Runge-Kutta
    "euler": False, "heun": False, "ralston": False, "classical_rk4": False,
    "bogacki_shampine_32": True, "dormand_prince_54": True, "tsit5": True, "cash_karp_54": True,
    "fehlberg_45": True, "dormand_prince_853": True, "vern7": True, "vern9": True,
    # Rosenbrock and Rosenbrock-W
    "ros3p": True, "rodas3p": True, "rodas4": True, "rodas5p": True, "rosenbrock23": True,
    "rodas23w": True, "ros34pw2": True, "ros34pw3": True,
    # DIRK with direct or Newton-Krylov linear solves
    "backward_euler": False, "implicit_midpoint": False, "trapezoid": False, "sdirk2": False,
    "sdirk3": False, "hairer_wanner_sdirk4": True, "kvaerno3": True, "kvaerno5": True,
    "kvaerno3_gmres": True, "kvaerno3_bicgstab": True, "kvaerno5_gmres": True,
    "kvaerno5_bicgstab": True, "hairer_wanner_sdirk4_gmres": True,
    "hairer_wanner_sdirk4_bicgstab": True,
    # fully implicit Runge-Kutta
    "radau_iia_3": True, "radau_iia_5": True, "gauss_legendre_2": False,
}

# Controller name -> (C++ type, number of gains `beta` it takes, or None for no gains).
CONTROLLERS = {
    "fixed": ("fixed_step", None),
    "i": ("i_controller", 1),
    "pi": ("pi_controller", 2),
    "pid": ("pid_controller", 3),
    "gustafsson": ("gustafsson_controller", None),
}

PRECISIONS = {"double": "double", "float": "float"}

# Metric name -> C++ type in cubie::metrics; peaks:N and negative_peaks:N take a count.
METRICS = {
    "mean": "mean", "std": "std_dev", "std_dev": "std_dev", "rms": "rms",
    "mean_std": "mean_std", "std_rms": "std_rms", "mean_std_rms": "mean_std_rms",
    "max": "max", "min": "min", "extrema": "extrema", "max_magnitude": "max_magnitude",
    "dxdt_max": "dxdt_max", "dxdt_min": "dxdt_min", "dxdt_extrema": "dxdt_extrema",
    "d2xdt2_max": "d2xdt2_max", "d2xdt2_min": "d2xdt2_min", "d2xdt2_extrema": "d2xdt2_extrema",
}
COUNTED_METRICS = {"peaks": "peaks", "negative_peaks": "negative_peaks"}
DEFAULT_PEAKS = 3
MAX_PEAKS = 64
_COUNTED = re.compile(r"([a-z_]+)(?::([0-9]+))?$")


def metric_type(name: str) -> str | None:
    """The C++ type of a metric ("peaks:5" -> "cubie::metrics::peaks<5>"), or None when
    the name is not a metric's."""
    if name in METRICS:
        return f"cubie::metrics::{METRICS[name]}"
    m = _COUNTED.match(name)
    if m and m.group(1) in COUNTED_METRICS:
        count = int(m.group(2) or DEFAULT_PEAKS)
        if 1 <= count <= MAX_PEAKS:
            return f"cubie::metrics::{COUNTED_METRICS[m.group(1)]}<{count}>"
    return None


def metric_names() -> str:
    return ", ".join(list(METRICS) + [f"{name}:N" for name in COUNTED_METRICS])
