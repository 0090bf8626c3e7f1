#!/usr/bin/env python3
"""The H200 reference times against KernelBench's H100 eager times.

    bench/reference_table.py --refinery A.json... [--compat B.json...] [--tsv OUT.tsv] > table.md

Reads the JSON of `refinery problems check --backend cuda --size full --json` (one or more
files per mode, as bench/gpu_session.sh's check stage writes them) and
../shared/kernelbench/h100_reference_times.tsv (or --h100 PATH). Prints a markdown table:
each problem's reference median in refinery's mode and, where checked, in --compat
kernelbench, the ratio of each to KernelBench's H100 eager mean, and a mark on ratios outside
0.5-2. --tsv also writes the figures as a tab-separated file."""
import argparse
import csv
import json
import os
import statistics
import sys


def load_checks(paths):
    rows = {}
    for path in paths or []:
        try:
            data = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"skipping {path}: {e}", file=sys.stderr)
            continue
        for r in data:
            rows[r["problem"]] = r
    return rows


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--refinery", nargs="+", required=True)
    ap.add_argument("--compat", nargs="*")
    ap.add_argument("--h100", default=os.path.join(here, "..", "..", "shared", "kernelbench",
                                                    "h100_reference_times.tsv"))
    ap.add_argument("--tsv")
    args = ap.parse_args()

    h100 = {}
    for r in csv.DictReader(open(args.h100), delimiter="\t"):
        h100[f"level{r['level']}/{r['id']}"] = (float(r["eager_ms_mean"]), r["name"])
    ref = load_checks(args.refinery)
    compat = load_checks(args.compat)

    def key(p):
        level, number = p.split("/")
        return int(level[5:]), int(number)

    def ms(r):
        return r.get("reference_ms") if r and r.get("ok") else None

    lines, tsv = [], []
    ratios = {}
    for p in sorted(set(ref) | set(compat), key=key):
        eager, name = h100.get(p, (None, ""))
        a, b = ms(ref.get(p)), ms(compat.get(p))
        ra = a / eager if a and eager else None
        rb = b / eager if b and eager else None
        level = p.split("/")[0]
        if ra:
            ratios.setdefault((level, "refinery"), []).append(ra)
        if rb:
            ratios.setdefault((level, "compat"), []).append(rb)
        off = any(r is not None and not 0.5 <= r <= 2 for r in (ra, rb))
        fmt = lambda v, f: f % v if v is not None else "-"
        failed = [m for m, r in (("refinery", ref.get(p)), ("compat", compat.get(p))) if r and not r.get("ok")]
        lines.append(f"| {p} | {name} | {fmt(eager, '%.3g')} | {fmt(a, '%.3f')} | {fmt(ra, '%.2f')} | "
                     f"{fmt(b, '%.3f')} | {fmt(rb, '%.2f')} | {'**outside 0.5-2**' if off else ''}"
                     f"{' FAILED: ' + ', '.join(failed) if failed else ''} |")
        tsv.append([p, name, eager or "", a or "", b or ""])

    print("| problem | KernelBench name | H100 eager ms | H200 refinery ms | ratio | H200 compat ms | ratio | |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(lines))
    print()
    print("| level | mode | problems | median ratio | outside 0.5-2 |")
    print("|---|---|---|---|---|")
    for (level, mode), rs in sorted(ratios.items()):
        out = sum(1 for r in rs if not 0.5 <= r <= 2)
        print(f"| {level} | {mode} | {len(rs)} | {statistics.median(rs):.2f} | {out} |")
    if args.tsv:
        with open(args.tsv, "w", newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["problem", "kernelbench_name", "h100_eager_ms", "h200_refinery_ms", "h200_compat_ms"])
            w.writerows(tsv)


if __name__ == "__main__":
    main()
