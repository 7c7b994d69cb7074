"""Plot of a run's throughput by query and engine.

    python -m bench.plot [bench/results/full.json] [docs/performance.png]

One panel per format: MB/s of every engine that answered the scan queries (Q1-Q4, Q6) right (wrong answers
are left out), cat's read rate as a line, and a panel with the schema discovery (Q5) times: a first load(),
no cache. spark-drill's re-loads from its discovery cache (Q5c, Q5c-dir) are not plotted: they are no
discovery, and a bar beside Q5's would read as one (issue 30); the report's cache table has them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench.report import rows

QUERIES = ("Q1", "Q2", "Q2d", "Q3", "Q4", "Q6")
LABELS = {
    "Q1": "Q1 count(*)",
    "Q2": "Q2 narrow",
    "Q2d": "Q2d narrow\n+ distinct",
    "Q3": "Q3 all columns",
    "Q4": "Q4 group by dir0",
    "Q6": "Q6 1 % filter",
}


def discovery_rows(res: dict[str, Any]) -> list[dict[str, Any]]:
    """The discovery panel's bars: Q5's right answers alone, never a re-load from a cache."""
    return [
        r for fmt in ("csv", "json") for r in rows(res, fmt) if r["query"] == "Q5" and r["status"] == "ok"
    ]


def plot(res: dict[str, Any], out: Path) -> None:
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tab20 = plt.get_cmap("tab20")  # more engines than tab10 has colors

    def color(i: int) -> Any:
        """tab20's ten hues first (its even entries), then their light variants."""
        return tab20((2 * i) % 20 + (2 * i) // 20 % 2)

    fig, axes = plt.subplots(1, 3, figsize=(22, 6), gridspec_kw={"width_ratios": [4, 4, 2]})
    for ax, fmt in zip(axes[:2], ("csv", "json"), strict=True):
        table = [r for r in rows(res, fmt) if r["status"] == "ok"]
        engines = list(dict.fromkeys(r["engine"] for r in table if r["query"] in QUERIES))
        width = 0.8 / max(len(engines), 1)
        for i, engine in enumerate(engines):
            ys = [
                next((r["mbps"] or 0 for r in table if r["engine"] == engine and r["query"] == q), 0)
                for q in QUERIES
            ]
            xs = [j + (i - (len(engines) - 1) / 2) * width for j in range(len(QUERIES))]
            ax.bar(xs, ys, width, label=engine, color=color(i))
        cat = next((r["mbps"] for r in table if r["query"] == "Q0"), None)
        if cat:
            ax.axhline(cat, color="grey", linestyle="--", linewidth=1, label=f"cat ({cat:.0f} MB/s)")
        ax.set_yscale("log")
        ax.set_xticks(range(len(QUERIES)), [LABELS[q] for q in QUERIES])
        ax.set_ylabel("MB/s (log)")
        size = res["sizes"][fmt]["bytes"] / 2**20
        ax.set_title(f"{fmt.upper()}: {size:.0f} MiB, correct answers only")
        ax.legend(fontsize=7, loc="upper right")
    ax = axes[2]
    q5 = discovery_rows(res)
    ax.barh([r["engine"] for r in q5], [r["seconds"] for r in q5], color="tab:purple")
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.set_xlabel("seconds (log)")
    ax.set_title("Q5 schema discovery: first load(), no cache")
    ax.tick_params(axis="y", labelsize=7)
    m = res["machine"]
    fig.suptitle(
        f"spark-drill benchmark, {res['time'][:10]}: local[2], {m['cpus']} CPUs, {m['memory_gib']:.0f} GiB; "
        f"median of {res['runs']} warm runs"
    )
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else Path(__file__).parent / "results" / "full.json"
    out = Path(argv[1]) if len(argv) > 1 else Path("docs/performance.png")
    plot(json.loads(src.read_text()), out)
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
