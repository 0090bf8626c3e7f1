# refinery's build step for a Python candidate (eval/build/python_build.h). It
# runs in the compilers' sandbox, never in refinery: it imports the candidate's
# module and builds ModelNew with the problem's dims, so that every
# torch.utils.cpp_extension.load_inline (or load) the module calls at import
# or in its constructor builds here, with the compilers, into ext/NAME/. It
# writes manifest.json: what was built, by name, and why the build failed
# where it did. The runner later imports the module again with those calls
# answered from what was built here, and starts no compiler.
#
#   python3 python_build.py ARGS.json
#
# ARGS: {"source": file, "init": [dims], "ext": folder, "manifest": file,
#        "warm": {"device": "cuda", "inputs": [{shape, dtype, scalar, value, weight}]} or null,
#        "python_path": [folders]}.
#
# With "warm" (a module that uses Triton, on the cuda backend), ModelNew also
# runs once on inputs of the job's shapes, so that Triton compiles its
# kernels (and its launcher) here, into TRITON_CACHE_DIR; the runner starts
# no compiler, so it finds them there. The C modules Triton builds with the
# system's compiler (its driver's utilities, each kernel's launcher; Triton 3.6
# caches none of them) are kept in TRITON_CACHE_DIR/refinery-c/SHA256/, by the
# digest of their C source, where the runner's prelude answers Triton's
# build of the same source.
import hashlib
import json
import os
import shutil
import sys
import traceback

args = json.load(open(sys.argv[1]))
# The module path refinery's build found (PYTHONPATH's folders included, which
# -I ignores), as the runner has it: added here, with their .pth files.
import site  # noqa: E402

for folder in args.get("python_path", []):
    if folder and folder not in sys.path and os.path.isdir(folder):
        site.addsitedir(folder)
manifest = {"extensions": [], "error": None, "phase": None}


def done(code):
    with open(args["manifest"], "w") as f:
        json.dump(manifest, f)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def fail(phase, message):
    manifest["phase"] = phase
    manifest["error"] = message
    done(1)


try:
    import torch
    import torch.utils.cpp_extension as cpp_extension
except BaseException:
    fail("import torch", traceback.format_exc(limit=4))

real_load_inline = cpp_extension.load_inline
real_load = cpp_extension.load


def building(real, kind):
    def build(*a, **kw):
        name = kw.get("name", a[0] if a else None)
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError("%s: name must be an identifier, not %r" % (kind, name))
        if any(e["name"] == name for e in manifest["extensions"]):
            raise ValueError("%s: the name %r is built twice" % (kind, name))
        folder = os.path.join(args["ext"], name)
        os.makedirs(folder, exist_ok=True)
        kw["build_directory"] = folder
        kw["verbose"] = False
        try:
            module = real(*a, **kw)
        except BaseException as e:
            manifest["phase"] = kind
            manifest["error"] = "%s(name=%r) failed:\n%s" % (kind, name, e)
            raise
        library = os.path.join(folder, name + ".so")
        if not os.path.exists(library):
            raise RuntimeError("%s(name=%r) left no %s.so" % (kind, name, name))
        python_module = kw.get("is_python_module", True)
        manifest["extensions"].append({"name": name, "file": library, "python_module": bool(python_module)})
        return module

    return build


cpp_extension.load_inline = building(real_load_inline, "load_inline")
cpp_extension.load = building(real_load, "load")


def keep_triton_c_modules():
    """Triton's C builds, each kept by its source's digest for the runner."""
    try:
        import triton.runtime.build as triton_build
    except BaseException:
        return  # the module's import reports it
    real_build = getattr(triton_build, "_build", None)
    if real_build is None:
        return

    def build(name, src, srcdir, *rest, **kw):
        so = real_build(name, src, srcdir, *rest, **kw)
        with open(src, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        kept = os.path.join(os.environ["TRITON_CACHE_DIR"], "refinery-c", digest)
        os.makedirs(kept, exist_ok=True)
        shutil.copyfile(so, os.path.join(kept, os.path.basename(so)))
        return so

    triton_build._build = build


if args.get("warm") and os.environ.get("TRITON_CACHE_DIR"):
    keep_triton_c_modules()

with open(args["source"]) as f:
    source = f.read()
try:
    code = compile(source, "model_new.py", "exec")
except SyntaxError:
    fail("syntax", traceback.format_exc(limit=0))
# Its source where inspect finds it (Triton's @jit reads the function's source).
import linecache  # noqa: E402

linecache.cache["model_new.py"] = (len(source), None, source.splitlines(True), "model_new.py")
module = type(sys)("model_new")
module.__file__ = "model_new.py"
sys.modules["model_new"] = module
try:
    exec(code, module.__dict__)
except BaseException as e:
    if manifest["error"] is None:
        missing = isinstance(e, ModuleNotFoundError)
        fail("missing package" if missing else "import",
             ("the module imports %r, which this host does not have\n" % e.name if missing else "") +
             traceback.format_exc(limit=-3))
    done(1)
model_new = module.__dict__.get("ModelNew")
if not isinstance(model_new, type):
    fail("ModelNew", "the module defines no class ModelNew")
try:
    model = model_new(*args["init"])
except BaseException:
    # Only a build it asked for is the build's business here; the runner
    # reports any other failure of the constructor, on its device.
    if manifest["error"] is not None:
        done(1)
    manifest["constructor"] = traceback.format_exc(limit=-2)
    done(0)

DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16,
          "int64": torch.int64, "int32": torch.int32, "bool": torch.bool}
warm = args.get("warm")
if warm:
    try:
        device = warm["device"]
        values = []
        for spec in warm["inputs"]:
            if spec["weight"]:
                continue
            dtype = DTYPES[spec["dtype"]]
            if spec["scalar"]:
                value = spec["value"]
                values.append(bool(value) if dtype == torch.bool else int(value) if not dtype.is_floating_point
                              else float(value))
            elif dtype.is_floating_point:
                values.append(torch.randn(spec["shape"], device=device, dtype=dtype))
            else:
                values.append(torch.zeros(spec["shape"], device=device, dtype=dtype))
        if isinstance(model, torch.nn.Module):
            model = model.to(device)
        with torch.no_grad():
            model(*values)
        torch.cuda.synchronize()
    except BaseException as e:
        # A Triton compile error is the build's; anything else, the runner's to report.
        if type(e).__module__.startswith("triton"):
            fail("triton", traceback.format_exc(limit=-3))
        manifest["warm"] = traceback.format_exc(limit=-2)
done(0)
