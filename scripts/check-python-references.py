#!/usr/bin/python3
"""Checks problems' Python references (problems/LEVEL/N_name/reference.py) against their specs.

A Python reference is the problem as KernelBench structures it, written by this project:

    class Model(nn.Module):
        def __init__(self, <dims>): ...   # each argument a dim of spec.yaml's sizes, by that name
        def forward(self, <inputs>): ...  # the spec's inputs that are not weights, in the spec's order
    WEIGHTS = {"conv_weight": "conv.weight", ...}  # spec weight -> the Model's parameter or buffer
    <the full size's dims as module constants>
    def get_inputs(): ...       # forward's inputs at the full size
    def get_init_inputs(): ...  # the constructor's arguments at the full size

A weight list (level 3: `params`) needs no WEIGHTS entries: its entries are named as the Model's
state_dict names them. Every weight of the spec must land on a parameter or buffer of exactly
its shape, and every parameter of the Model must be one of them (a parameter the judge cannot
set would make the Python reference disagree with the C++ one).

For each problem this script, at the size asked for (small by default): builds the Model from the
dims, sets every weight from a tensor drawn as the spec draws it, runs forward on inputs drawn as
the spec draws them (shapes, dtypes, distributions, transforms), and checks that get_inputs() / get_init_inputs() give the full size's
shapes. It does not compare the output with the C++ reference's: that is `refinery problems check
--python`'s, through the judge (issue 33).

    scripts/check-python-references.py [--size small|full] PROBLEM...
    (PROBLEM: level1/19, or a problem folder)

Exit code 0 when every problem passes. Needs Debian's python3-torch (hence /usr/bin/python3) and build/refinery
(it reads each problem's resolved inputs from `refinery problems show ID --json`).
"""
import argparse
import importlib.util
import inspect
import json
import os
import subprocess
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32, "bool": torch.bool}


def resolved(problem, size, refinery, problems_dir):
    out = subprocess.run([refinery, "problems", "show", problem, "--size", size, "--json", "--problems", problems_dir],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return json.loads(out.stdout)


def load_module(path):
    spec = importlib.util.spec_from_file_location("reference_" + str(abs(hash(path))), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_tensor(shape, dtype, draw=None, then=None):
    """A tensor drawn as the spec draws it (refinery problems show --json's `draw`: uniform [a,b),
    normal mean a std b, randint [a,b), bernoulli p=a, constant a; default_init is resolved to
    uniform there), then transformed as the spec says."""
    t = DTYPES[dtype]
    kind, a, b = (draw or {}).get("kind", "normal"), (draw or {}).get("a", 0.0), (draw or {}).get("b", 1.0)
    if kind == "uniform":
        x = torch.rand(shape, dtype=torch.float64) * (b - a) + a
    elif kind == "normal":
        x = torch.randn(shape, dtype=torch.float64) * b + a
    elif kind == "randint":
        x = torch.randint(int(a), int(b), shape).to(torch.float64)
    elif kind == "bernoulli":
        x = (torch.rand(shape, dtype=torch.float64) < a).to(torch.float64)
    elif kind == "constant":
        x = torch.full(shape, float(a), dtype=torch.float64)
    else:
        x = torch.randn(shape, dtype=torch.float64)
    if then == "symmetric":
        x = (x + x.transpose(-2, -1)) / 2
    elif then == "triu":
        x = x.triu()
    elif then == "tril":
        x = x.tril()
    elif then == "softmax":
        x = x.softmax(-1)
    elif then == "sign":
        x = x.sign()
    return x.to(t) if t != torch.bool else x != 0


class on_meta:
    """get_inputs() at the full size without the memory: tensor factories make meta tensors (shapes only)."""
    NAMES = ("rand", "randn", "randint", "zeros", "ones", "empty", "full", "arange", "tensor")

    def __enter__(self):
        self.saved = {n: getattr(torch, n) for n in self.NAMES}
        for n, fn in self.saved.items():
            setattr(torch, n, (lambda f: lambda *a, **k: f(*a, **{**k, "device": "meta"}))(fn))

    def __exit__(self, *exc):
        for n, fn in self.saved.items():
            setattr(torch, n, fn)


def instantiate(info, m):
    """The Model built from the size's dims with every weight drawn as the spec draws it, and
    forward's inputs drawn likewise: (model, inputs, constructor parameters), or a string that
    says what is wrong."""
    weights_map = getattr(m, "WEIGHTS", {})
    params = [p for p in inspect.signature(m.Model.__init__).parameters.values() if p.name != "self"]
    args = {}
    for p in params:
        if p.name in info["dims"]:
            args[p.name] = info["dims"][p.name]
        elif p.default is inspect.Parameter.empty:
            return f"Model's argument '{p.name}' is no dim of the spec ({', '.join(info['dims'])})"
    torch.manual_seed(0)
    model = m.Model(**args)
    owned = dict(model.named_parameters())
    owned.update(dict(model.named_buffers()))
    set_names = set()
    forward_inputs = []
    with torch.no_grad():
        for entry in info["inputs"]:
            if not entry["weight"]:
                if "scalar" in entry:
                    forward_inputs.append(entry["scalar"])
                else:
                    forward_inputs.append(random_tensor(entry["shape"], entry["dtype"], entry.get("draw"),
                                                        entry.get("then")))
                continue
            target = entry["name"] if "list" in entry else weights_map.get(entry["name"])
            if target is None:
                return f"WEIGHTS has no entry for the spec's weight '{entry['name']}'"
            if target not in owned:
                return f"weight '{entry['name']}' -> '{target}': the Model has no such parameter or buffer"
            if list(owned[target].shape) != entry["shape"]:
                return (f"weight '{entry['name']}' -> '{target}': the Model's is {list(owned[target].shape)}, "
                        f"the spec's {entry['shape']}")
            owned[target].copy_(random_tensor(entry["shape"], entry["dtype"], entry.get("draw"), entry.get("then")))
            set_names.add(target)
    unset = [n for n, _ in model.named_parameters() if n not in set_names]
    if unset:
        return f"the Model's parameters {unset[:4]} are no weight of the spec"
    return model, forward_inputs, params


def check(problem, size, refinery, problems_dir):
    info = resolved(problem, size, refinery, problems_dir)
    full = resolved(problem, "full", refinery, problems_dir)
    path = os.path.join(info["dir"], "reference.py")
    if not os.path.exists(path):
        return "no reference.py"
    m = load_module(path)
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(m, name):
            return f"reference.py defines no {name}"
    built = instantiate(info, m)
    if isinstance(built, str):
        return built
    model, forward_inputs, params = built
    # In its default (training) mode, as KernelBench runs a Model.
    with torch.no_grad():
        out = model(*forward_inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for o in outs:
        if not isinstance(o, torch.Tensor):
            return f"forward returned a {type(o).__name__}, not a tensor"
        if o.is_floating_point() and not torch.isfinite(o).all():
            return "forward's output has non-finite values"
    # get_inputs / get_init_inputs at the full size.
    want = [e for e in full["inputs"] if not e["weight"]]
    with on_meta():
        got = m.get_inputs()
    if len(got) != len(want):
        return f"get_inputs() gives {len(got)} inputs, forward takes {len(want)}"
    for g, w in zip(got, want):
        if "shape" in w and (not isinstance(g, torch.Tensor) or list(g.shape) != w["shape"]):
            return f"get_inputs(): '{w['name']}' should be {w['shape']}"
    init = m.get_init_inputs()
    full_args = [full["dims"].get(p.name) for p in params if p.name in full["dims"]]
    if list(init)[:len(full_args)] != full_args:
        return f"get_init_inputs() gives {list(init)}, the full size's dims are {full_args}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("problems", nargs="+")
    ap.add_argument("--size", default="small", choices=["small", "full"])
    ap.add_argument("--refinery", default=os.path.join(ROOT, "build", "refinery"))
    ap.add_argument("--problems", dest="problems_dir", default=os.path.join(ROOT, "problems"),
                    help="the problems folder (default: this tree's)")
    args = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    failed = 0
    for problem in args.problems:
        try:
            why = check(problem, args.size, args.refinery, args.problems_dir)
        except Exception as e:  # a reference that raises is a failure to report, not to stop at
            why = f"{type(e).__name__}: {e}"
        print(f"{problem:40s} {'ok' if why is None else 'FAILED: ' + why}", flush=True)
        failed += why is not None
    print(f"{len(args.problems) - failed} of {len(args.problems)} ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
