"""What a timed call's fresh inputs cost the judge, old way against new, on one device.

Until 2026-12-06 each timed call got a copy of one draw moved by a cyclic shift
(a roll: one read and one write of the tensor); now each call's inputs are drawn
anew (torch.manual_seed, then normal_ into a new tensor: one write). This times
both, per call, at level1/19's sizes, with the device synchronised around each,
as the judge does (eval/worker/judge_timing.cc).

    python3 bench/draw_cost.py [cuda|cpu] [REPEATS]
"""
import statistics
import sys
import time

import torch

device = sys.argv[1] if len(sys.argv) > 1 else "cuda"
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 10
sizes = {"small": (256, 16384), "full": (4096, 393216)}


def sync():
    if device == "cuda":
        torch.cuda.synchronize()


def per_call(make):
    times = []
    for i in range(repeats):
        sync()
        t0 = time.perf_counter()
        out = make(i)
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
        del out
    return statistics.median(times)


for name, shape in sizes.items():
    if device == "cpu" and name == "full":
        continue
    torch.manual_seed(1)
    base = torch.empty(shape, device=device).normal_(0, 1)
    n = base.numel()

    def shifted(i):
        return base.reshape(-1).roll(1 + (i * 7919) % (n - 1)).reshape(shape).contiguous()

    def drawn(i):
        torch.manual_seed(1000 + i)
        return torch.empty(shape, device=device).normal_(0, 1)

    old, new = per_call(shifted), per_call(drawn)
    print(f"{device} {name} {shape}: shifted copy {old:.3f} ms, fresh draw {new:.3f} ms per call ({new / old:.2f}x)")
    del base
    if device == "cuda":
        torch.cuda.empty_cache()
