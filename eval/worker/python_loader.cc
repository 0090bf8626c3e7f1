// Python.h first, as the Python C API asks.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "eval/worker/python_loader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ATen/DLConvertor.h>
#include <ATen/core/grad_mode.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <tuple>
#include <utility>

#include "base/fs.h"
#include "base/text.h"
#include "eval/build/compiler.h"
#include "eval/build/python_bundle.h"

namespace eval::worker {
namespace {

constexpr const char* kPrelude =
#include "embedded/python_prelude.inc"
    ;

// A new reference, released at scope's end.
struct Ref {
  PyObject* p = nullptr;
  Ref() = default;
  explicit Ref(PyObject* o) : p(o) {}
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  Ref(Ref&& o) noexcept : p(o.p) { o.p = nullptr; }
  Ref& operator=(Ref&& o) noexcept {
    std::swap(p, o.p);
    return *this;
  }
  ~Ref() { Py_XDECREF(p); }
  PyObject* release() { return std::exchange(p, nullptr); }
  explicit operator bool() const { return p != nullptr; }
};

// The pending Python exception as its traceback's text, cleared.
std::string python_error(const std::string& what) {
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  Ref t(type), v(value), b(tb);
  std::string text;
  Ref traceback(PyImport_ImportModule("traceback"));
  if (traceback && v) {
    Ref lines(
        PyObject_CallMethod(traceback.p, "format_exception", "OOO", type ? type : Py_None, value, tb ? tb : Py_None));
    if (lines && PyList_Check(lines.p))
      for (Py_ssize_t i = 0; i < PyList_Size(lines.p); ++i)
        if (const char* line = PyUnicode_AsUTF8(PyList_GetItem(lines.p, i))) text += line;
  }
  if (text.empty() && v) {
    Ref s(PyObject_Str(v.p));
    if (s)
      if (const char* c = PyUnicode_AsUTF8(s.p)) text = c;
  }
  PyErr_Clear();
  return what + (text.empty() ? "" : ":\n" + base::trim(text));
}

void delete_capsule(PyObject* capsule) {
  // Still named "dltensor": never consumed, so the tensor is still ours to free.
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (m && m->deleter) m->deleter(m);
}

base::Result<int> sealed_memfd(const std::string& name, const std::string& bytes) {
  int fd = memfd_create(name.c_str(), MFD_ALLOW_SEALING);
  if (fd < 0) return base::Error{"memfd for " + name + ": " + std::strerror(errno)};
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      close(fd);
      return base::Error{"writing " + name + ": " + std::strerror(errno)};
    }
    done += static_cast<size_t>(n);
  }
  fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  return fd;
}

class Embedded final : public PythonCandidate {
 public:
  base::Status open(int bundle_fd) override {
    std::string data;
    char buf[1 << 16];
    for (ssize_t n; (n = read(bundle_fd, buf, sizeof buf)) > 0;) data.append(buf, static_cast<size_t>(n));
    TRY_ASSIGN(std::vector<BundleFile> files, read_bundle(data));
    for (auto& f : files) {
      if (f.kind == "source") {
        source_ = std::move(f.bytes);
      } else if (f.kind == "triton_cache") {
        triton_.push_back(std::move(f));
      } else {
        TRY_ASSIGN(int fd, sealed_memfd(f.name, f.bytes));
        fds_.push_back(fd);
        built_.push_back({f.name, f.kind, "/proc/self/fd/" + std::to_string(fd)});
      }
    }
    return prepare_triton();
  }

  const std::vector<int>& library_fds() const override { return fds_; }

  // The function defined after each @triton.jit (other decorators may sit between).
  std::vector<std::string> triton_kernels() const override {
    std::vector<std::string> names;
    for (size_t at = source_.find("triton.jit"); at != std::string::npos; at = source_.find("triton.jit", at + 1)) {
      const size_t def = source_.find("def ", at);
      if (def == std::string::npos) break;
      const size_t open = source_.find('(', def);
      if (open == std::string::npos) break;
      std::string name = base::trim(source_.substr(def + 4, open - def - 4));
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    return names;
  }

  base::Status start() override {
    if (globals_) return {};
    TRY(start_interpreter());
    globals_ = Ref(PyDict_New());
    PyDict_SetItemString(globals_.p, "__builtins__", PyEval_GetBuiltins());
    PyDict_SetItemString(globals_.p, "__name__", Ref(PyUnicode_FromString("refinery_prelude")).p);
    Ref ran(PyRun_String(kPrelude, Py_file_input, globals_.p, globals_.p));
    if (!ran) return base::Error{python_error("refinery's prelude failed (import torch)")};
    Ref dlpack(PyImport_ImportModule("torch.utils.dlpack"));
    if (!dlpack) return base::Error{python_error("importing torch.utils.dlpack")};
    from_dlpack_ = Ref(PyObject_GetAttrString(dlpack.p, "from_dlpack"));
    call_ = Ref(PyDict_GetItemString(globals_.p, "call"));
    Py_XINCREF(call_.p);
    return {};
  }

  base::Status load(const nlohmann::json& job) override {
    TRY(start());

    // The job's inputs: which are weights (and the reference's name for each), which scalars.
    Ref wanted(PyList_New(0));
    for (const auto& in : job.at("inputs")) {
      Input i;
      i.scalar = in.at("scalar").get<bool>();
      i.weight = in.value("weight", false);
      i.integer = in.at("dtype").get<std::string>().rfind("int", 0) == 0;
      i.boolean = in.at("dtype").get<std::string>() == "bool";
      i.value = in.at("value").get<double>();
      if (i.weight) {
        std::string path = in.value("path", std::string());
        Ref shape(PyList_New(0));
        for (int64_t d : in.at("shape").get<std::vector<int64_t>>())
          PyList_Append(shape.p, Ref(PyLong_FromLongLong(d)).p);
        Ref entry(Py_BuildValue("(ssO)", in.at("name").get<std::string>().c_str(), path.c_str(), shape.p));
        PyList_Append(wanted.p, entry.p);
      }
      inputs_.push_back(i);
    }
    Ref built(PyDict_New());
    for (const auto& [name, kind, path] : built_)
      PyDict_SetItemString(built.p, name.c_str(), Ref(Py_BuildValue("(ss)", kind.c_str(), path.c_str())).p);
    Ref init(PyList_New(0));
    for (int64_t v : job.value("init", std::vector<int64_t>{})) PyList_Append(init.p, Ref(PyLong_FromLongLong(v)).p);
    const std::string device =
        job.at("backend").get<std::string>() == "cuda" ? "cuda:" + std::to_string(job.at("device").get<int>()) : "cpu";
    at::NoGradGuard no_grad;
    PyObject* load = PyDict_GetItemString(globals_.p, "load");
    model_ = Ref(PyObject_CallFunction(load, "s#OOs", source_.data(), static_cast<Py_ssize_t>(source_.size()), built.p,
                                       init.p, device.c_str()));
    if (!model_) return base::Error{python_error("loading ModelNew")};
    PyObject* targets = PyDict_GetItemString(globals_.p, "targets");
    Ref found(PyObject_CallFunction(targets, "OO", model_.p, wanted.p));
    if (!found) return base::Error{python_error("binding the reference's weights to ModelNew")};
    params_ = Ref(PySequence_GetItem(found.p, 0));
    return {};
  }

  base::Status call(const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) override {
    out.clear();
    if (in.size() != inputs_.size()) return base::Error{"the call has " + std::to_string(in.size()) + " inputs"};
    at::NoGradGuard no_grad;
    Ref weights(PyList_New(0)), args(PyList_New(0));
    for (size_t i = 0; i < in.size(); ++i) {
      const Input& spec = inputs_[i];
      Ref value;
      if (spec.scalar) {
        value = Ref(spec.boolean   ? PyBool_FromLong(spec.value != 0)
                    : spec.integer ? PyLong_FromLongLong(static_cast<long long>(spec.value))
                                   : PyFloat_FromDouble(spec.value));
      } else {
        TRY_ASSIGN(PyObject * t, wrap(in[i]));
        value = Ref(t);
      }
      PyList_Append(spec.weight ? weights.p : args.p, value.p);
    }
    Ref result(PyObject_CallFunctionObjArgs(call_.p, model_.p, params_.p, weights.p, args.p, nullptr));
    if (!result) return base::Error{python_error("ModelNew.forward raised")};
    for (Py_ssize_t k = 0; k < PyList_Size(result.p); ++k) {
      PyObject* pair = PyList_GetItem(result.p, k);  // (capsule, is bool), borrowed
      PyObject* capsule = PyTuple_GetItem(pair, 0);
      auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
      if (!m) return base::Error{python_error("passing ModelNew.forward's output back")};
      at::Tensor back = at::fromDLPack(m);
      PyCapsule_SetName(capsule, "used_dltensor");
      out.push_back(PyObject_IsTrue(PyTuple_GetItem(pair, 1)) == 1 ? back.view(at::kBool) : back);
    }
    return {};
  }

 private:
  struct Input {
    bool scalar = false, weight = false, integer = false, boolean = false;
    double value = 0;
  };

  // What the build's forward left in Triton's cache, in a folder of the
  // runner's own /tmp that Triton is pointed at; and where libcuda is, which
  // Triton would otherwise ask ldconfig (a process) for. The interpreter may
  // be running already: os.environ is its copy of the environment, read when
  // it started, so each variable goes there too.
  base::Status prepare_triton() {
    if (triton_.empty()) return {};
    char dir[] = "/tmp/refinery-triton-XXXXXX";
    if (!mkdtemp(dir)) return base::Error{std::string("a folder for Triton's cache: ") + std::strerror(errno)};
    for (const auto& f : triton_) {
      if (f.name.find("..") != std::string::npos || f.name.empty() || f.name[0] == '/')
        return base::Error{"the bundle names a Triton cache file " + f.name};
      const std::string path = std::string(dir) + "/" + f.name;
      for (size_t slash = path.find('/', sizeof dir); slash != std::string::npos; slash = path.find('/', slash + 1))
        mkdir(path.substr(0, slash).c_str(), 0700);
      TRY(base::write_file(path, f.bytes));
    }
    TRY(set_environment("TRITON_CACHE_DIR", dir));
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
      auto at = line.find("/libcuda.so");
      if (at == std::string::npos) continue;
      TRY(set_environment("TRITON_LIBCUDA_PATH", line.substr(line.find('/'), at - line.find('/'))));
      break;
    }
    return {};
  }

  // In the process's environment and, once the interpreter runs, in os.environ.
  static base::Status set_environment(const std::string& key, const std::string& value) {
    setenv(key.c_str(), value.c_str(), 1);
    if (!Py_IsInitialized()) return {};
    Ref os(PyImport_ImportModule("os"));
    Ref environ(os ? PyObject_GetAttrString(os.p, "environ") : nullptr);
    Ref text(PyUnicode_FromString(value.c_str()));
    if (!environ || !text || PyMapping_SetItemString(environ.p, key.c_str(), text.p) != 0)
      return base::Error{python_error("setting os.environ[" + key + "]")};
    return {};
  }

  base::Status start_interpreter() {
    if (Py_IsInitialized()) return {};
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    config.site_import = 0;              // sys.path is the one refinery was built with, .pth entries included
    config.write_bytecode = 0;           // nothing written beside the modules
    config.install_signal_handlers = 0;  // the runner's own stay
    config.module_search_paths_set = 1;
    for (const auto& p : build_toolchain().python_path) {
      if (p.empty()) continue;
      wchar_t* w = Py_DecodeLocale(p.c_str(), nullptr);
      PyWideStringList_Append(&config.module_search_paths, w);
      PyMem_RawFree(w);
    }
    PyStatus status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status))
      return base::Error{std::string("starting Python: ") + (status.err_msg ? status.err_msg : "failed")};
    return {};
  }

  // A Python tensor over `t`'s memory, made once per place in the arena.
  base::Result<PyObject*> wrap(const at::Tensor& t) {
    auto key = std::make_tuple(t.data_ptr(), static_cast<int>(t.scalar_type()), t.sizes().vec(), t.strides().vec());
    if (auto it = wrapped_.find(key); it != wrapped_.end()) {
      Py_INCREF(it->second);
      return it->second;
    }
    const bool boolean = t.scalar_type() == at::kBool;
    DLManagedTensor* m = at::toDLPack(boolean ? t.view(at::kByte) : t);
    Ref capsule(PyCapsule_New(m, "dltensor", delete_capsule));
    if (!capsule) {
      m->deleter(m);
      return base::Error{python_error("passing an input to Python")};
    }
    Ref tensor(PyObject_CallFunctionObjArgs(from_dlpack_.p, capsule.p, nullptr));
    if (tensor && boolean) {
      Ref torch(PyImport_ImportModule("torch"));
      Ref bool_type(PyObject_GetAttrString(torch.p, "bool"));
      tensor = Ref(PyObject_CallMethod(tensor.p, "view", "O", bool_type.p));
    }
    if (!tensor) return base::Error{python_error("passing an input to Python")};
    Py_INCREF(tensor.p);  // the cache's reference; the caller's is the one made
    wrapped_[key] = tensor.p;
    return tensor.release();
  }

  std::string source_;
  std::vector<BundleFile> triton_;
  std::vector<int> fds_;
  std::vector<std::tuple<std::string, std::string, std::string>> built_;  // name, kind, path
  std::vector<Input> inputs_;
  Ref globals_, from_dlpack_, call_, model_, params_;
  std::map<std::tuple<void*, int, std::vector<int64_t>, std::vector<int64_t>>, PyObject*> wrapped_;
};

}  // namespace

std::unique_ptr<PythonCandidate> make_python_candidate() {
  return std::make_unique<Embedded>();
}

}  // namespace eval::worker
