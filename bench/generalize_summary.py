#!/usr/bin/env python3
"""What bench/gpu_session.sh's generalize stage found (issue 36): per level and in
all, how many references passed `problems check --hidden-shapes 3` and
`--precision bf16` at full size, which failed and why, and the time the hidden
shapes added to each evaluation (phases_ms.hidden_shapes against the rest of the
evaluation without its compile).

    bench/generalize_summary.py DIR     (DIR holds generalize_hidden.json and/or generalize_bf16.json:
                                         problems check --json rows)
"""
import json
import os
import statistics
import sys


def rows(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"  {os.path.basename(path)}: no result ({e})")
        return None


def main(folder):
    totals = {"hidden": [0, 0], "bf16": [0, 0]}
    added, rest, unmoved = [], [], []
    for kind in ("hidden", "bf16"):
        everything = rows(os.path.join(folder, f"generalize_{kind}.json"))
        if everything is None:
            continue
        print(f"== {'--hidden-shapes 3' if kind == 'hidden' else '--precision bf16'} (full size, no timing)")
        for level in (1, 2, 3):
            got = [r for r in everything if r["problem"].startswith(f"level{level}/")]
            if not got:
                continue
            ok = [r for r in got if r.get("ok")]
            totals[kind][0] += len(ok)
            totals[kind][1] += len(got)
            print(f"  level {level}: {len(ok)} of {len(got)} pass")
            for r in got:
                if not r.get("ok"):
                    print(f"    {r['problem']} {r.get('status', '')}: {r.get('message', '')[:400]}")
                if kind != "hidden":
                    continue
                phases = r.get("phases_ms") or {}
                if "hidden_shapes" in phases:
                    hidden = phases["hidden_shapes"]
                    added.append(hidden)
                    rest.append(max(phases.get("total", 0) - hidden - phases.get("compile", 0), 0))
                for h in r.get("hidden_shapes") or []:
                    if "note" in h:
                        unmoved.append(f"{r['problem']}: {h['note']}")
        print(f"  all: {totals[kind][0]} of {totals[kind][1]} pass")
    if added:
        print(f"== time the hidden shapes added ({len(added)} problems checked at hidden shapes)")
        print(f"  hidden shapes: {sum(added) / 1000:.1f} s in all, median {statistics.median(added):.0f} ms, "
              f"max {max(added):.0f} ms per problem")
        print(f"  the rest of each evaluation (no compile, no timing): {sum(rest) / 1000:.1f} s in all, "
              f"median {statistics.median(rest):.0f} ms")
        ratios = [a / r for a, r in zip(added, rest) if r > 0]
        if ratios:
            print(f"  added / rest: median {statistics.median(ratios):.2f}x")
    for line in unmoved:
        print("  checked at the shown size only: " + line[:300])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/refinery-gpu")
