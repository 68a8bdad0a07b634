#!/usr/bin/env python3
"""SVG line plots of the accuracy tables of bench/, standard library only.

  python3 bench/plot_accuracy.py moduli table.md out.svg
      bench/accuracy_vs_gemmul8.sh's table: max element-wise relative error against the moduli
      count (log scale), one line per phi and scaling mode, with GEMMul8's published GH200 points.
  python3 bench/plot_accuracy.py grid grid.md out.svg
      bench/accuracy_grid.sh's table: correct bits (max norm) against phi at K = 16384, one line
      per scheme.
"""
import math
import sys

# GEMMul8_numerical_results, results_06/GH200 (m = n = 128, K = 16384): (phi, mode) -> {moduli: error}
PUBLISHED = {
    ("0.5", "fast"): {16: 2.5e-13, 18: 1.8e-15, 19: 2.1e-16},
    ("0.5", "accurate"): {16: 1.5e-13, 17: 2.3e-15, 18: 2.1e-16},
    ("4", "accurate"): {20: 1.2e-13},
}
PALETTE = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]


def table_rows(path):
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and not set(cells[0]) <= set("- ") and cells[0] not in ("phi", "scheme"):
            yield cells


class Plot:
    """A plot area with linear x, linear or log10 y, grid lines, a legend on the right."""

    def __init__(self, x_range, y_range, x_ticks, y_ticks, x_label, y_label, y_tick_text):
        self.w, self.h, self.left, self.right, self.top, self.bottom = 720, 440, 70, 200, 20, 50
        self.x_range, self.y_range = x_range, y_range
        self.out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w}" height="{self.h}" font-family="sans-serif" font-size="11">',
                    f'<rect width="{self.w}" height="{self.h}" fill="white"/>']
        for y in y_ticks:
            py = self.py(y)
            self.out.append(f'<line x1="{self.left}" y1="{py:.1f}" x2="{self.w - self.right}" y2="{py:.1f}" stroke="#ddd"/>')
            self.out.append(f'<text x="{self.left - 6}" y="{py + 4:.1f}" text-anchor="end">{y_tick_text(y)}</text>')
        for x in x_ticks:
            self.out.append(f'<text x="{self.px(x):.1f}" y="{self.h - self.bottom + 16}" text-anchor="middle">{x}</text>')
        mid = (self.top + self.h - self.bottom) / 2
        self.out.append(f'<text x="{(self.left + self.w - self.right) / 2}" y="{self.h - 10}" text-anchor="middle">{x_label}</text>')
        self.out.append(f'<text x="14" y="{mid}" transform="rotate(-90 14 {mid})" text-anchor="middle">{y_label}</text>')
        self.legend_y = self.top + 10

    def px(self, x):
        return self.left + (x - self.x_range[0]) / (self.x_range[1] - self.x_range[0]) * (self.w - self.left - self.right)

    def py(self, y):
        y = min(max(y, self.y_range[0]), self.y_range[1])
        return self.top + (self.y_range[1] - y) / (self.y_range[1] - self.y_range[0]) * (self.h - self.top - self.bottom)

    def line(self, points, color, dashed, label):
        dash = ' stroke-dasharray="5,3"' if dashed else ""
        path = " ".join(f"{'M' if i == 0 else 'L'}{self.px(x):.1f},{self.py(y):.1f}" for i, (x, y) in enumerate(points))
        self.out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        self.out.append(f'<line x1="{self.w - self.right + 10}" y1="{self.legend_y}" x2="{self.w - self.right + 30}" y2="{self.legend_y}" stroke="{color}" stroke-width="2"{dash}/>')
        self.out.append(f'<text x="{self.w - self.right + 35}" y="{self.legend_y + 4}">{label}</text>')
        self.legend_y += 16

    def marker(self, x, y, color):
        self.out.append(f'<circle cx="{self.px(x):.1f}" cy="{self.py(y):.1f}" r="4" fill="none" stroke="{color}" stroke-width="1.5"/>')

    def legend_marker(self, label):
        self.out.append(f'<circle cx="{self.w - self.right + 20}" cy="{self.legend_y}" r="4" fill="none" stroke="black"/>')
        self.out.append(f'<text x="{self.w - self.right + 35}" y="{self.legend_y + 4}">{label}</text>')

    def save(self, path):
        open(path, "w").write("\n".join(self.out + ["</svg>"]) + "\n")


def moduli_plot(table, out):
    series = {}
    for cells in table_rows(table):
        series.setdefault((cells[0], cells[1]), []).append((int(cells[2]), math.log10(float(cells[3]))))
    colors = {"fast": PALETTE[0], "accurate": PALETTE[1], "gemmul8-fast": PALETTE[2]}
    p = Plot((13, 21), (-17, 3), range(14, 21), range(-17, 4, 2), "moduli (ozaki2-int8, 128 x 128 x 16384)",
             "max element-wise relative error", lambda e: f"1e{e}")
    for (phi, mode), points in sorted(series.items()):
        p.line(sorted(points), colors[mode], phi != "0.5", f"ozref {mode}, phi {phi}")
    for (phi, mode), points in PUBLISHED.items():
        for m, e in points.items():
            p.marker(m, math.log10(e), colors[mode])
    p.legend_marker("GEMMul8 published (GH200)")
    p.save(out)


def grid_plot(table, out):
    phis = [0, 0.5, 1, 2, 4]
    p = Plot((0, 4), (0, 56), phis, range(0, 57, 8), "phi of (rand - 0.5) exp(phi randn), 128 x 128 x 16384",
             "correct bits (max norm)", str)
    rows = [cells for cells in table_rows(table) if cells[1] == "16384"]
    for i, cells in enumerate(rows):
        bits = [float(c.split("/")[0]) for c in cells[2:7]]
        p.line(list(zip(phis, bits)), PALETTE[i % len(PALETTE)], False, cells[0])
    p.save(out)


if __name__ == "__main__":
    {"moduli": moduli_plot, "grid": grid_plot}[sys.argv[1]](sys.argv[2], sys.argv[3])
