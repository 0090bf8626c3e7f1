#!/usr/bin/python3
"""Whether eval.precision makes sense for each problem: its Python reference run at fp16 or bf16
against the same reference in float64 on the same values (every float input and weight rounded to
the precision first, so that only the arithmetic differs), judged at the precision's tolerance
(atol = rtol = 1e-2, as refinery judges). A problem whose own reference cannot meet the tolerance
at a precision is one whose spec should call that precision unfit (spec.yaml's unfit_precisions):
no kernel could be judged fairly there.

    bench/precision_sense.py [--size small|full] [--device cpu|cuda] [--precisions bf16,fp16]
                             [--refinery build/refinery] [--json FILE] PROBLEM...

Prints one line per problem and precision: ok, or UNFIT with the share of output elements out of
tolerance and the largest error, or a note where the reference does not run at that precision on
this device (a missing kernel is the device's limit, not the problem's). Needs torch (Debian's
python3-torch on cpu) and the refinery binary (for each problem's resolved inputs).
"""
import argparse
import copy
import importlib.util
import json
import os
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("check_refs", os.path.join(ROOT, "scripts",
                                                                        "check-python-references.py"))
refs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(refs)

PRECISIONS = {"fp16": torch.float16, "bf16": torch.bfloat16}
TOL = 1e-2


def rounded(x, dtype, device):
    """x's float32 values rounded to dtype: (as dtype, as float64), both on device."""
    low = x.to(device=device, dtype=dtype)
    return low, low.to(torch.float64)


def compare(low, truth):
    """Share of elements out of tolerance, and the largest absolute error."""
    if isinstance(truth, (tuple, list)):
        parts = [compare(a, b) for a, b in zip(low, truth)]
        return max(p[0] for p in parts), max(p[1] for p in parts)
    if not truth.is_floating_point():
        bad = (low != truth).double().mean().item()
        return bad, float(bad)
    a, b = low.to(torch.float64), truth
    err = (a - b).abs()
    finite = torch.isfinite(b)
    bad = ((err > TOL + TOL * b.abs()) & finite) | (torch.isfinite(a) != finite)
    return bad.double().mean().item(), (err[finite].max().item() if finite.any() else 0.0)


def run(model, inputs, dtype, device):
    """model(inputs) with every float tensor and parameter at dtype, in training mode as KernelBench runs it."""
    m = copy.deepcopy(model).to(device=device, dtype=dtype)
    with torch.no_grad():
        torch.manual_seed(1)
        return m(*[x.to(device=device, dtype=dtype) if isinstance(x, torch.Tensor) and x.is_floating_point()
                   else (x.to(device) if isinstance(x, torch.Tensor) else x) for x in inputs])


def sense(problem, size, device, precisions, refinery):
    info = refs.resolved(problem, size, refinery, os.path.join(ROOT, "problems"))
    m = refs.load_module(os.path.join(info["dir"], "reference.py"))
    built = refs.instantiate(info, m)
    if isinstance(built, str):
        return {p: {"note": built} for p in precisions}
    model, inputs, _ = built
    out = {}
    for name in precisions:
        dtype = PRECISIONS[name]
        t0 = time.time()
        try:
            # The same values for both: inputs and weights rounded to the precision.
            low_model = copy.deepcopy(model).to(dtype)
            low_inputs = [x.to(dtype) if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
            truth = run(low_model, low_inputs, torch.float64, device)
            low = run(low_model, low_inputs, dtype, device)
            bad, worst = compare(low, truth)
            out[name] = {"bad": bad, "max_err": worst, "s": round(time.time() - t0, 2)}
        except Exception as e:  # a kernel the device lacks at that dtype, or memory
            out[name] = {"note": f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"}
        finally:
            if device == "cuda":
                torch.cuda.empty_cache()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("problems", nargs="+")
    ap.add_argument("--size", default="small", choices=["small", "full"])
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--precisions", default="bf16,fp16")
    ap.add_argument("--refinery", default=os.path.join(ROOT, "build", "refinery"))
    ap.add_argument("--json")
    args = ap.parse_args()
    precisions = args.precisions.split(",")
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    if args.device == "cuda":
        torch.set_default_device("cuda")  # draws and models made on the GPU: full-size inputs drawn in seconds
    results, unfit = {}, 0
    for problem in args.problems:
        try:
            got = sense(problem, args.size, args.device, precisions, args.refinery)
        except Exception as e:
            got = {p: {"note": f"{type(e).__name__}: {e}"[:200]} for p in precisions}
        results[problem] = got
        for name, r in got.items():
            if "note" in r:
                line = "does not run: " + r["note"]
            elif r["bad"] > 0:
                unfit += 1
                line = f"UNFIT: {100 * r['bad']:.3g}% of elements out of tolerance, largest error {r['max_err']:.3g}"
            else:
                line = f"ok (largest error {r['max_err']:.3g}, {r['s']} s)"
            print(f"{problem:14s} {name}  {line}", flush=True)
        if args.json:  # after every problem, so that a run cut short keeps what it found
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)
    print(f"{unfit} problem-precision pairs out of tolerance of {len(args.problems) * len(precisions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
