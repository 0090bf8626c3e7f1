# Checks the two halves of refinery's answer to Triton's C builds (its
# driver's utilities, each kernel's launcher), with a stand-in
# triton.runtime.build whose _build runs the real C compiler:
#   build  eval/build/python_build.py keep_triton_c_modules(): each C module
#          built is kept under TRITON_CACHE_DIR/refinery-c/SHA256/;
#   runner eval/worker/python_prelude.py _answer_triton_c_builds(): the same
#          source is answered from there with no process started, and a
#          source the build never met is refused, naming the module.
#
#   python3 triton_c_modules.py SOURCE_DIR SCRATCH_DIR     (prints "ok")
import ast
import os
import subprocess
import sys

source_dir, scratch = sys.argv[1], sys.argv[2]
STAND_IN = '''
import os, subprocess, sysconfig, tempfile
def _build(name, src, srcdir, library_dirs, include_dirs, libraries, ccflags):
    so = os.path.join(srcdir, name + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.check_call(["gcc", src, "-shared", "-fPIC", "-o", so])
    return so
def compile_module_from_src(src, name):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name + ".c")
        with open(path, "w") as f:
            f.write(src)
        so = _build(name, path, d, [], [], [], [])
        with open(so, "rb") as f:
            return f.read()
'''


def function(path, name):
    """The one function `name` of the file at `path`, defined alone."""
    tree = ast.parse(open(path).read())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    namespace = {}
    exec("import hashlib, os, shutil\n" + ast.unparse(node), namespace)
    return namespace[name]


def stage(which):
    """One process's half: `which` is build or runner."""
    sys.path.insert(0, os.path.join(scratch, "stand-in"))
    os.environ["TRITON_CACHE_DIR"] = os.path.join(scratch, "cache")
    if which == "build":
        function(os.path.join(source_dir, "eval/build/python_build.py"), "keep_triton_c_modules")()
    else:
        answer = function(os.path.join(source_dir, "eval/worker/python_prelude.py"), "_answer_triton_c_builds")
        answer(os.path.join(os.environ["TRITON_CACHE_DIR"], "refinery-c"))

        def refused(*a, **kw):
            raise PermissionError("the runner starts no process")

        subprocess.check_call = refused
    import triton.runtime.build as build

    built = build.compile_module_from_src("int utilities(void) { return 1; }", "cuda_utils")
    if which == "build":
        return
    with open(os.path.join(scratch, "built.so"), "rb") as f:
        assert built == f.read(), "the runner's answer differs from what the build made"
    try:
        build.compile_module_from_src("int launcher(void) { return 2; }", "__triton_launcher")
    except RuntimeError as e:
        assert "__triton_launcher" in str(e) and "did not" in str(e), str(e)
    else:
        raise AssertionError("a source the build never met was answered")


if len(sys.argv) > 3:
    stage(sys.argv[3])
    sys.exit(0)
os.makedirs(os.path.join(scratch, "stand-in/triton/runtime"))
for package in ("triton", "triton/runtime"):
    open(os.path.join(scratch, "stand-in", package, "__init__.py"), "w").close()
with open(os.path.join(scratch, "stand-in/triton/runtime/build.py"), "w") as f:
    f.write(STAND_IN)
subprocess.run([sys.executable, __file__, source_dir, scratch, "build"], check=True)
kept = os.path.join(scratch, "cache", "refinery-c")
digests = os.listdir(kept)
assert len(digests) == 1 and len(digests[0]) == 64, digests
files = os.listdir(os.path.join(kept, digests[0]))
assert len(files) == 1 and files[0].startswith("cuda_utils"), files
os.link(os.path.join(kept, digests[0], files[0]), os.path.join(scratch, "built.so"))
subprocess.run([sys.executable, __file__, source_dir, scratch, "runner"], check=True)
print("ok")
