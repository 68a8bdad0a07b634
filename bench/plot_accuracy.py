#!/usr/bin/env python3
"""Draws the table of bench/accuracy_vs_gemmul8.sh as an SVG line plot (max element-wise relative
error against the moduli count, log scale, one line per phi and scaling mode), with GEMMul8's
published GH200 points for comparison. Standard library only.
Usage: python3 bench/plot_accuracy.py table.md out.svg"""
import math
import sys

# GEMMul8_numerical_results, results_06/GH200 (m = n = 128, K = 16384): (phi, mode) -> {moduli: error}
PUBLISHED = {
    ("0.5", "fast"): {16: 2.5e-13, 18: 1.8e-15, 19: 2.1e-16},
    ("0.5", "accurate"): {16: 1.5e-13, 17: 2.3e-15, 18: 2.1e-16},
    ("4", "accurate"): {20: 1.2e-13},
}
COLORS = {"fast": "#1f77b4", "accurate": "#2ca02c", "gemmul8-fast": "#d62728"}


def read_table(path):
    series = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[2].isdigit():
            continue
        series.setdefault((cells[0], cells[1]), {})[int(cells[2])] = float(cells[3])
    return series


def main():
    series = read_table(sys.argv[1])
    w, h, left, right, top, bottom = 720, 440, 70, 190, 20, 50
    lo, hi = -17, 3  # log10 range of the y axis
    xs = [13, 21]

    def px(m):
        return left + (m - xs[0]) / (xs[1] - xs[0]) * (w - left - right)

    def py(err):
        v = min(max(math.log10(max(err, 1e-300)), lo), hi)
        return top + (hi - v) / (hi - lo) * (h - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    for e in range(lo, hi + 1, 2):
        y = py(10.0 ** e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    for m in range(14, 21):
        out.append(f'<text x="{px(m):.1f}" y="{h - bottom + 16}" text-anchor="middle">{m}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 10}" text-anchor="middle">moduli (ozaki2-int8, 128 x 128 x 16384)</text>')
    out.append(f'<text x="14" y="{(top + h - bottom) / 2}" transform="rotate(-90 14 {(top + h - bottom) / 2})" text-anchor="middle">max element-wise relative error</text>')
    legend_y = top + 10
    for (phi, mode), points in sorted(series.items()):
        dash = "" if phi == "0.5" else ' stroke-dasharray="5,3"'
        path = " ".join(f"{'M' if i == 0 else 'L'}{px(m):.1f},{py(e):.1f}" for i, (m, e) in enumerate(sorted(points.items())))
        out.append(f'<path d="{path}" fill="none" stroke="{COLORS[mode]}" stroke-width="2"{dash}/>')
        out.append(f'<line x1="{w - right + 10}" y1="{legend_y}" x2="{w - right + 30}" y2="{legend_y}" stroke="{COLORS[mode]}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{w - right + 35}" y="{legend_y + 4}">ozref {mode}, phi {phi}</text>')
        legend_y += 16
    for (phi, mode), points in sorted(PUBLISHED.items()):
        for m, e in points.items():
            out.append(f'<circle cx="{px(m):.1f}" cy="{py(e):.1f}" r="4" fill="none" stroke="{COLORS[mode]}" stroke-width="1.5"/>')
    out.append(f'<circle cx="{w - right + 20}" cy="{legend_y}" r="4" fill="none" stroke="black"/>')
    out.append(f'<text x="{w - right + 35}" y="{legend_y + 4}">GEMMul8 published (GH200)</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
