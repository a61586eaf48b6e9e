"""cubie plot: a result as a figure (PNG, PDF or SVG, by the file's extension), a row of
panels for each kind the result allows:

    series   each variable against time, for the chosen trajectories   (saved series)
    phase    the second variable against the first, for the same       (two saved variables)
    summary  histograms over every trajectory of the variables' summary metrics, last window
    final    the final states against the input the batch sweeps (or histograms of them)
"""

from pathlib import Path

import numpy as np

from cubie_cli import results
from cubie_cli.errors import CliError

MAX_PANELS = 4  # in a row


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        raise CliError("cubie plot needs matplotlib: run tools/setup.sh (or python3 -m pip "
                       "install matplotlib)", status=1) from None
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
    return plt


def trajectories(text, n) -> list:
    """Trajectory indices from "0:10" (a Python slice), "3,7,9" or "5"; five across the
    batch by default."""
    if text is None:
        chosen = sorted({0, n // 4, n // 2, 3 * n // 4, n - 1})
        return [i for i in chosen if 0 <= i < n]
    try:
        if ":" in text:
            parts = [int(p) if p.strip() else None for p in text.split(":")]
            chosen = list(range(n))[slice(*parts)]
        else:
            chosen = [int(p) for p in text.split(",")]
    except (ValueError, TypeError):
        raise CliError(f"--trajectories {text}: expected start:stop[:step] or i,j,k") from None
    wrong = [i for i in chosen if not 0 <= i < n]
    if wrong or not chosen:
        raise CliError(f"--trajectories {text}: the result has trajectories 0 to {n - 1}")
    return chosen


def _swept(result):
    """The first input that differs between trajectories, as (name, values), or None."""
    for names, values in ((result.parameter_names, result.parameters),
                          (result.state_names, result.initial_states)):
        if len(values):
            for name, row in zip(names, values):
                if np.any(row != row[0]):
                    return name, row
    return None


def _label(result, i, swept) -> str:
    return f"{i}: {swept[0]} = {swept[1][i]:.4g}" if swept else f"trajectory {i}"


def _variables(text, available, what) -> list:
    if text is None:
        return available[:3]
    chosen = [v.strip() for v in text.split(",") if v.strip()]
    for name in chosen:
        if name not in available:
            raise CliError(f"--vars: '{name}' is not among the {what}: {', '.join(available)}")
    return chosen


def plot_file(path, figure, variables=None, chosen=None, kind="auto"):
    """Draws the result at `path` into the file `figure`."""
    result = results.read(path)
    plt = _matplotlib()
    n = result.n_trajectories
    picked = trajectories(chosen, n)
    swept = _swept(result)
    saved = _variables(variables, result.saved_variables, "saved variables") \
        if len(result.saved_variables) else []
    kinds = [kind] if kind != "auto" else (
        (["series"] if saved else []) + (["phase"] if len(saved) >= 2 else []) +
        (["summary"] if result.summary_legend else []) + ["final"])
    if ("series" in kinds or "phase" in kinds) and not saved:
        raise CliError(f"{path} holds no saved series: save_every in [outputs] saves them")
    if "phase" in kinds and len(saved) < 2:
        raise CliError("a phase portrait needs two saved variables (--vars x,y)")
    if "summary" in kinds and not result.summary_legend:
        raise CliError(f"{path} holds no summaries: summaries in [outputs] computes them")

    rows = []
    for k in kinds:
        if k == "series":
            rows.append([("series", v) for v in saved[:MAX_PANELS]])
        elif k == "phase":
            rows.append([("phase", tuple(saved[:2]))])
        elif k == "summary":
            wanted = saved or _variables(variables, result.state_names, "states")
            legend = [r for r in result.summary_legend if r.split(".")[0] in wanted]
            rows.append([("summary", r) for r in (legend or result.summary_legend)[:MAX_PANELS]])
        else:
            final = _variables(variables, result.state_names, "states") if not saved \
                else [v for v in saved if v in result.state_names] or result.state_names[:3]
            rows.append([("final", v) for v in final[:MAX_PANELS]])
    columns = max(len(r) for r in rows)
    fig, axes = plt.subplots(len(rows), columns, figsize=(4.2 * columns, 3.4 * len(rows)),
                             squeeze=False)
    for r, row in enumerate(rows):
        for c in range(columns):
            ax = axes[r][c]
            if c >= len(row):
                ax.set_visible(False)
                continue
            _draw(ax, row[c], result, picked, swept)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="upper center", ncol=min(len(labels), 5),
                   fontsize="small", frameon=False)
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / fig.get_figheight()))  # the legend's inches
    else:
        fig.tight_layout()
    try:
        Path(figure).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(figure, dpi=110)
    except (OSError, ValueError) as e:
        raise CliError(f"cannot write {figure}: {getattr(e, 'strerror', None) or e}",
                       status=1) from None
    finally:
        plt.close(fig)


def _draw(ax, panel, result, picked, swept):
    what, name = panel
    if what == "series":
        k = result.saved_variables.index(name)
        for i in picked:
            ax.plot(result.save_times, result.saved[:, k, i], lw=1, label=_label(result, i, swept))
        ax.set_xlabel("t")
        ax.set_ylabel(name)
    elif what == "phase":
        a, b = (result.saved_variables.index(v) for v in name)
        for i in picked:
            ax.plot(result.saved[:, a, i], result.saved[:, b, i], lw=0.8,
                    label=_label(result, i, swept))
        ax.set_xlabel(name[0])
        ax.set_ylabel(name[1])
        ax.set_title("phase portrait", fontsize="medium")
    elif what == "summary":
        row = result.summary_legend.index(name)
        values = result.summaries[-1, row, :]
        ax.hist(values[np.isfinite(values)], bins=min(50, max(10, len(values) // 20)))
        ax.set_xlabel(name)
        ax.set_ylabel("trajectories")
        ax.set_title(f"window ending t = {result.window_ends[-1]:.4g}", fontsize="medium")
    else:
        k = result.state_names.index(name)
        if swept:
            order = np.argsort(swept[1], kind="stable")
            ax.plot(swept[1][order], result.final_states[k, order], ".", ms=2)
            ax.set_xlabel(swept[0])
            ax.set_ylabel(f"final {name}")
        else:
            values = result.final_states[k]
            ax.hist(values[np.isfinite(values)], bins=min(50, max(10, len(values) // 20)))
            ax.set_xlabel(f"final {name}")
            ax.set_ylabel("trajectories")


def plot_command(args) -> int:
    if not Path(args.result).exists():
        raise CliError(f"{args.result}: no such result")
    plot_file(args.result, args.output, args.vars, args.trajectories, args.kind)
    print(f"cubie: plotted {args.output}")
    return 0
