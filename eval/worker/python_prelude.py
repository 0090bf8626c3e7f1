# The Python half of refinery-python-runner (eval/worker/python_loader.h),
# run in the runner's sandbox before the candidate's module. It answers the
# module's load_inline and load calls from what its build made (the compilers
# run only in the compilers' sandbox), imports the module, builds ModelNew,
# finds the parameters the judge's weights go to, and makes one call.
# Nothing here is trusted: the judge checks what comes out.
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import shutil
import sys
import types

import torch
from torch.utils.dlpack import to_dlpack as _to_dlpack

_built = {}  # name -> (kind, path of the library)


def _answer(kind):
    def load(*a, **kw):
        name = kw.get("name", a[0] if a else None)
        if name not in _built:
            raise RuntimeError(
                "%s(name=%r) was not built: refinery builds what the module asks for when it is imported or "
                "ModelNew is constructed, not later (in forward, or under a name that changes)" % (kind, name))
        built_kind, path = _built[name]
        if built_kind == "library":
            torch.ops.load_library(path)
            return path
        loader = importlib.machinery.ExtensionFileLoader(name, path)
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return module

    return load


class _AnswerBuilds(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """torch.utils.cpp_extension as the module imports it: load_inline and
    load answered from the build; anything else it asks of the module comes
    from the real one, imported then (it costs a third of a second,
    setuptools and all, that most modules never need)."""

    NAME = "torch.utils.cpp_extension"

    def find_spec(self, name, path, target=None):
        if name != self.NAME:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.load_inline = _answer("load_inline")
        module.load = _answer("load")

        def real(attribute):
            if attribute.startswith("__"):  # what the import system asks of any module
                raise AttributeError(attribute)
            if "real" not in _AnswerBuilds.__dict__:
                import torch.utils

                spec = importlib.machinery.PathFinder.find_spec(self.NAME, torch.utils.__path__)
                actual = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(actual)
                _AnswerBuilds.real = actual
            return getattr(_AnswerBuilds.real, attribute)

        module.__getattr__ = real


sys.meta_path.insert(0, _AnswerBuilds())


def _answer_triton_c_builds(kept):
    """Triton's builds of C modules (its driver's utilities, each kernel's
    launcher: compiled with the system's compiler, which the runner may not
    start) answered from what the build step kept, by the source's digest."""
    import triton.runtime.build as triton_build

    def build(name, src, srcdir, *rest, **kw):
        with open(src, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        folder = os.path.join(kept, digest)
        files = os.listdir(folder) if os.path.isdir(folder) else []
        if len(files) != 1:
            raise RuntimeError(
                "Triton asked to compile a C module (%s) that the build step did not: refinery's build runs "
                "ModelNew once on the job's shapes, and the runner starts no compiler" % name)
        so = os.path.join(srcdir, files[0])
        shutil.copyfile(os.path.join(folder, files[0]), so)
        return so

    triton_build._build = build


def load(source, built, init, device):
    """The module's ModelNew(*init) on `device`; built: {name: (kind, path)}."""
    _built.update(built)
    triton_cache = os.environ.get("TRITON_CACHE_DIR")  # set by the runner where the bundle holds Triton's files
    if triton_cache and os.path.isdir(os.path.join(triton_cache, "refinery-c")):
        _answer_triton_c_builds(os.path.join(triton_cache, "refinery-c"))
    linecache.cache["model_new.py"] = (len(source), None, source.splitlines(True), "model_new.py")
    module = types.ModuleType("model_new")
    module.__file__ = "model_new.py"
    sys.modules["model_new"] = module
    exec(compile(source, "model_new.py", "exec"), module.__dict__)
    cls = module.__dict__.get("ModelNew")
    if not isinstance(cls, type):
        raise TypeError("the module defines no class ModelNew")
    model = cls(*init)
    if not callable(model):
        raise TypeError("ModelNew(...) is not callable")
    if isinstance(model, torch.nn.Module):
        model = model.to(device)
    return model


def targets(model, wanted):
    """The tensors of `model` the judge's weights go to, and how they were found.

    wanted: [(input name, the reference's parameter name, shape)], in the
    order of the job's weights. By name when every one is there; else by the
    order of ModelNew's parameters, when they are as many."""
    if not wanted:
        return [], "none"
    if not isinstance(model, torch.nn.Module):
        raise TypeError("ModelNew is no torch.nn.Module, so the reference's weights have nowhere to go")
    named = dict(model.named_parameters())
    named.update(dict(model.named_buffers()))
    if all(path in named for _, path, _ in wanted):
        picked, how = [named[path] for _, path, _ in wanted], "by name"
    else:
        params = list(model.named_parameters())
        if len(params) != len(wanted):
            name, path, _ = next(w for w in wanted if w[1] not in named)
            raise ValueError(
                "ModelNew has no parameter or buffer %r (the reference's %s), and its %d parameters do not line "
                "up with the reference's %d weights by order" % (path, name, len(params), len(wanted)))
        picked, how = [p for _, p in params], "by order"
    lookup = {id(t): n for n, t in list(model.named_parameters()) + list(model.named_buffers())}
    for (name, path, shape), t in zip(wanted, picked):
        if tuple(t.shape) != tuple(shape):
            raise ValueError("ModelNew's %s has shape %s where the reference's %s (%s) has %s" % (
                lookup.get(id(t), "?"), list(t.shape), path, name, list(shape)))
    return picked, how


def call(model, params, weights, args):
    """One forward with the call's weights in place: its outputs as DLPack
    capsules, each with whether it is a bool tensor (passed as uint8)."""
    for p, w in zip(params, weights):
        p.data = w
    out = model(*args)
    if isinstance(out, torch.Tensor):
        out = [out]
    elif not (isinstance(out, (tuple, list)) and all(isinstance(o, torch.Tensor) for o in out)):
        raise TypeError("ModelNew.forward returned %s, not a tensor or a tuple of tensors" % type(out).__name__)
    back = []
    for o in out:
        o = o.detach()
        boolean = o.dtype == torch.bool
        back.append((_to_dlpack(o.view(torch.uint8) if boolean else o), boolean))
    return back
