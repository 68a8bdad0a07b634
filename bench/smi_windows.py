#!/usr/bin/env python3
"""The GPU's clock, power and throttle reasons during each timed window of bench_gpu_pipeline.

Usage: smi_windows.py SMI_LOG.csv BENCH_STDERR

SMI_LOG.csv is what `nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,
temperature.gpu,clocks_event_reasons.active --format=csv --loop-ms=50` wrote during the run;
BENCH_STDERR holds the bench's lines "window NAME: CALLS calls from HH:MM:SS.mmm to
HH:MM:SS.mmm UTC" (one per timed figure; OZREF_SUSTAINED=1 adds the sustained ones). For each
window: the samples in it, the mean and least SM clock, the mean power, and the throttle reasons
seen (nvidia-smi's bit mask, OR-ed: 0x4 is the software power cap, 0x1 idle).
"""
import csv
import re
import sys

WINDOW = re.compile(r"^window (.+): (\d+) calls from (\d\d:\d\d:\d\d\.\d+) to (\d\d:\d\d:\d\d\.\d+) UTC$")


def seconds_of_day(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def number(field, unit):
    text = field.strip()
    if not text.endswith(unit):
        raise ValueError(f"expected a value in {unit}, got {text!r}")
    return float(text[: -len(unit)])


def samples(path):
    rows = []
    with open(path, newline="") as f:
        reader = csv.reader(f)
        next(reader, None)  # the header
        for line, row in enumerate(reader, start=2):
            if len(row) < 5:
                continue  # nvidia-smi's last line may be cut off when it is killed
            try:
                when = seconds_of_day(row[0].strip().split(" ")[1])
                rows.append((when, number(row[1], "MHz"), number(row[2], "W"), int(row[4].strip(), 16)))
            except (ValueError, IndexError) as e:
                sys.exit(f"smi_windows: {path}:{line}: {e}")
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log = samples(sys.argv[1])
    print("| window | calls | samples | mean SM clock (MHz) | least | mean power (W) | reasons |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with open(sys.argv[2]) as f:
        for text in f:
            match = WINDOW.match(text.strip())
            if not match:
                continue
            name, calls, start, stop = match.groups()
            t0, t1 = seconds_of_day(start), seconds_of_day(stop)
            inside = [s for s in log if t0 <= s[0] <= t1]
            if not inside:
                print(f"| {name} | {calls} | 0 | | | | |")
                continue
            clocks, power = [s[1] for s in inside], [s[2] for s in inside]
            reasons = 0
            for s in inside:
                reasons |= s[3]
            print(f"| {name} | {calls} | {len(inside)} | {sum(clocks) / len(clocks):.0f} | {min(clocks):.0f} "
                  f"| {sum(power) / len(power):.0f} | {reasons:#x} |")


if __name__ == "__main__":
    main()
