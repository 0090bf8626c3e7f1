#include "eval/worker/runner.h"

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <dirent.h>

#include <ATen/ops/zeros_like.h>
#include <cstring>

#include "base/elf_symbols.h"
#include "eval/build/language.h"
#include "eval/build/shim.h"
#include "eval/sandbox/seccomp.h"
#include "eval/worker/arena.h"
#include "eval/worker/channel.h"
#include "eval/worker/compare.h"
#include "eval/worker/device.h"
#include "eval/worker/entry.h"
#include "eval/worker/inputs.h"
#include "eval/worker/python_loader.h"
#include "profiler/cupti.h"
#include "profiler/launch_watch.h"

namespace eval::worker {
namespace {

using namespace std::chrono_literals;

void set_text(ControlBlock& b, const std::string& text) {
  size_t n = std::min(text.size(), kReplyTextBytes - 1);
  std::memcpy(b.text, text.data(), n);
  b.text[n] = '\0';
  b.text_bytes = static_cast<uint32_t>(n);
}

// The threads of this process, from its own /proc (the runner's namespace has one).
int64_t thread_count() {
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return 0;
  int64_t n = 0;
  while (dirent* e = readdir(dir)) n += e->d_name[0] != '.';
  closedir(dir);
  return n;
}

std::string read_all(int fd) {
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  return out;
}

struct Runner {
  ControlBlock* block = nullptr;
  std::unique_ptr<Device> device;
  std::unique_ptr<Arena> arena;
  Entry entry = nullptr;                    // a shared library's (Loader::shared_library)
  std::unique_ptr<PythonCandidate> python;  // refinery-python-runner's, started before the job; null in refinery-worker
  int candidate_fd = -1;                    // the candidate library, or a Python candidate's bundle
  bool loaded = false;
  std::vector<ResolvedInput> specs;
  std::vector<std::string> names;
  std::vector<std::string> metrics;
  int ordinal = 0;
  Backend backend = Backend::cpu;
  Loader loader = Loader::shared_library;  // the candidate's language's (language.h)
  // cuda: which kernels the candidate launches (from the runner's start, so
  // that the stand-in calls pay for it as the candidate's do); null where
  // CUPTI refused, and watch_note says why.
  std::unique_ptr<profiler::LaunchWatch> watch;
  std::string watch_note;

  // Before the candidate's library is loaded (its constructors are model
  // code): its own kernels are the functions it defines.
  void start_watch() {
    if (backend != Backend::cuda) return;
    std::vector<std::string> own;
    for (int fd : python ? python->library_fds() : std::vector<int>{candidate_fd}) {
      auto functions = base::elf_defined_functions(fd);
      if (!functions)
        return void(watch_note = "reading the candidate library's functions: " + functions.error().message);
      own.insert(own.end(), functions->begin(), functions->end());
    }
    if (python)
      for (auto& name : python->triton_kernels()) own.push_back(std::move(name));
    auto w = profiler::LaunchWatch::start(own);
    if (!w) return void(watch_note = w.error().message);
    watch = std::move(w).value();
  }

  Reply attach() {
    if (arena) return set_text(*block, "the arena is attached already"), Reply::failed;
    auto fds = receive_fds(kRunnerSocketFd, 1);
    close(kRunnerSocketFd);
    if (!fds) return set_text(*block, "no arena: " + fds.error().message), Reply::failed;
    auto opened = Arena::open(backend, ordinal, fds->front(), block->arena_bytes);  // owns the descriptor
    if (!opened) return set_text(*block, opened.error().message), Reply::failed;
    arena = std::move(opened).value();
    return Reply::ok;
  }

  base::Result<std::vector<at::Tensor>> views(const TensorSlot* slots, uint32_t count) {
    std::vector<at::Tensor> out;
    if (count > static_cast<uint32_t>(kMaxTensors)) return base::Error{"too many slots"};
    for (uint32_t i = 0; i < count; ++i) {
      const TensorSlot& s = slots[i];
      if (s.ndim < 0 || s.ndim > kMaxDims) return base::Error{"bad slot rank"};
      std::vector<int64_t> shape(s.shape, s.shape + s.ndim);
      if (s.dtype < 0 || s.dtype >= static_cast<int32_t>(at::ScalarType::NumOptions))
        return base::Error{"bad slot dtype"};
      auto dtype = static_cast<at::ScalarType>(s.dtype);
      uint64_t n = 1;
      for (auto d : shape) {
        if (d < 0) return base::Error{"bad slot shape"};
        n *= static_cast<uint64_t>(d);
      }
      if (!arena) return base::Error{"no arena"};
      if (s.offset > arena->bytes() || n * c10::elementSize(dtype) > arena->bytes() - s.offset)
        return base::Error{"slot outside the arena"};
      out.push_back(arena->view(s.offset, shape, dtype));
    }
    return out;
  }

  // Call k's inputs, scalars included, in the spec's order.
  base::Result<std::vector<at::Tensor>> inputs(uint32_t k) {
    const uint32_t n = block->input_count;
    if (n > static_cast<uint32_t>(kMaxTensors)) return base::Error{"too many input slots"};
    TRY_ASSIGN(std::vector<at::Tensor> tensors, views(block->inputs + k * n, n));
    std::vector<at::Tensor> out;
    size_t next = 0;
    for (const auto& in : specs) {
      if (in.is_scalar) {
        out.push_back(scalar_input(in));
      } else {
        if (next >= tensors.size()) return base::Error{"fewer input slots than tensor inputs"};
        out.push_back(tensors[next++]);
      }
    }
    return out;
  }

  // The calls of a request back to back, each on its own place's inputs;
  // then, with all of them done, each one's outputs into its place's slots.
  // Before the candidate is loaded, each call is a no-op (see below).
  Reply call() {
    const uint32_t calls = block->calls;
    if (calls < 1 || calls > static_cast<uint32_t>(kMaxCalls)) return set_text(*block, "bad call count"), Reply::failed;
    if (block->output_count > static_cast<uint32_t>(kMaxTensors))
      return set_text(*block, "too many output slots"), Reply::failed;
    if (static_cast<uint64_t>(calls) * std::max(block->input_count, block->output_count) >
        static_cast<uint64_t>(kMaxSlots))
      return set_text(*block, "more slots than a request holds"), Reply::failed;
    std::vector<std::vector<at::Tensor>> in(calls), actual(calls), slots(calls);
    for (uint32_t k = 0; k < calls; ++k) {
      auto i = inputs(k);
      if (!i) return set_text(*block, i.error().message), Reply::failed;
      in[k] = std::move(i).value();
      auto o = views(block->outputs + k * block->output_count, block->output_count);
      if (!o) return set_text(*block, o.error().message), Reply::failed;
      slots[k] = std::move(o).value();
    }
    device->reset_persisting_cache();
    const bool checked = block->checked == 1 && loaded;
    if (checked)
      if (auto poisoned = device->poison_free_memory(); !poisoned)
        return set_text(*block, "poisoning freed memory: " + poisoned.error().message), Reply::failed;
    if (auto s = device->synchronize(); !s) return set_text(*block, s.error().message), Reply::failed;
    const int64_t threads_before = watch ? thread_count() : 0;
    // Before the candidate is loaded, a call is the runner's own stand-in:
    // outputs of the right shapes, zeroed; the judge times it to learn what a
    // window costs beyond its calls.
    auto no_op = [&](int k) -> base::Status {
      actual[k].clear();
      for (const auto& slot : slots[k]) actual[k].push_back(at::zeros_like(slot));
      return {};
    };
    auto run = [&] {
      return device->time_calls(static_cast<int>(calls),
                                [&](int k) { return loaded ? forward(in[k], actual[k]) : no_op(k); });
    };
    base::Result<std::vector<CallTime>> times = std::vector<CallTime>{};
    if (checked && watch) {
      auto traced = watch->trace([&]() -> base::Status {
        times = run();
        return times ? base::Status{} : base::Status{times.error()};
      });
      if (!traced && times)
        return set_text(*block, "tracing the call's kernels: " + traced.error().message), Reply::rejected;
    } else {
      times = run();
    }
    if (!times) return set_text(*block, times.error().message), Reply::failed;
    // Taken before the outputs are copied: those copies are the runner's launches, not the candidate's.
    // The stand-in's calls take it too (the judge ignores it), so that their windows cost what the candidate's do.
    if (watch) {
      auto tally = watch->take();
      if (!tally) return set_text(*block, tally.error().message), Reply::rejected;
      block->watch = 1;
      block->own_launches = tally->own;
      block->other_launches = tally->other;
      block->graph_launches = tally->graphs;
      block->streams_created = tally->streams;
      block->own_kernel_us = tally->own_us;
      block->other_kernel_us = tally->other_us;
      size_t n = std::min(tally->top_other.size(), sizeof block->top_other - 1);
      std::memcpy(block->top_other, tally->top_other.data(), n);
      block->top_other[n] = '\0';
      block->threads_left = std::max<int64_t>(0, thread_count() - threads_before);
    }
    for (uint32_t k = 0; k < calls && k < times->size(); ++k) {
      block->stream_ms[k] = (*times)[k].stream_ms;
      block->device_wide_ms[k] = (*times)[k].device_wide_ms;
      block->host_ms[k] = (*times)[k].host_ms;
    }
    std::vector<std::string> tensor_names;
    for (size_t i = 0; i < specs.size(); ++i)
      if (!specs[i].is_scalar) tensor_names.push_back(names[i]);
    for (uint32_t k = 0; k < calls; ++k) {
      std::vector<at::Tensor> tensor_inputs;
      for (size_t i = 0; i < specs.size(); ++i)
        if (!specs[i].is_scalar) tensor_inputs.push_back(in[k][i]);
      if (auto m = check_no_alias(actual[k], tensor_inputs, tensor_names)) return set_text(*block, *m), Reply::rejected;
      if (auto m = check_structure(actual[k], slots[k])) return set_text(*block, *m), Reply::wrong_shape;
      try {
        for (size_t o = 0; o < actual[k].size(); ++o) slots[k][o].copy_(actual[k][o]);
      } catch (const std::exception& e) {
        return set_text(*block, std::string("copying the outputs: ") + e.what()), Reply::failed;
      }
    }
    if (auto s = device->synchronize(); !s) return set_text(*block, s.error().message), Reply::failed;
    return Reply::ok;
  }

  // One call of the loaded candidate.
  base::Status forward(const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
    return python ? python->call(in, out) : invoke(entry, in, out);
  }

  // The Python candidate opened before the watch started: its module, ModelNew and its weights.
  Reply load_python(const nlohmann::json& job) {
    if (!python)
      return set_text(*block,
                      "a Python candidate needs refinery-python-runner, which this build of refinery lacks "
                      "(it was configured without a Python whose torch is its LibTorch)"),
             Reply::load_failed;
    if (auto s = python->load(job); !s) return set_text(*block, s.error().message), Reply::load_failed;
    loaded = true;
    if (watch) (void)watch->take();  // what the module's import and ModelNew's constructor launched is not a call's
    if (!watch_note.empty()) set_text(*block, watch_note);
    return Reply::ok;
  }

  // The candidate's library and its shim's entry point.
  Reply load_library() {
    Reply result = Reply::ok;
    void* handle = dlopen(("/proc/self/fd/" + std::to_string(candidate_fd)).c_str(), RTLD_NOW | RTLD_LOCAL);
    void* symbol = handle ? dlsym(handle, kEntrySymbol) : nullptr;
    if (!handle) {
      result = Reply::load_failed;
      set_text(*block, std::string("candidate library failed to load: ") + dlerror());
    } else if (!symbol) {
      result = Reply::load_failed;
      set_text(*block, std::string("candidate library has no entry point ") + kEntrySymbol);
    }
    entry = reinterpret_cast<Entry>(symbol);
    loaded = entry != nullptr;
    if (watch) {
      watch->set_library(symbol);
      (void)watch->take();  // what its constructors launched is not a call's
    }
    if (result == Reply::ok && !watch_note.empty()) set_text(*block, watch_note);
    return result;
  }

  Reply profile() {
    watch.reset();  // the last request: the profile's CUPTI use is its own
    auto in = inputs(0);
    if (!in) return set_text(*block, in.error().message), Reply::failed;
    std::vector<at::Tensor> scratch;
    auto p = profiler::profile_with_cupti(
        ordinal, metrics,
        [&]() -> base::Status {
          TRY(forward(*in, scratch));
          return device->synchronize();
        },
        [] { return base::Status{}; });
    if (!p) return set_text(*block, p.error().message), Reply::failed;
    set_text(*block, to_json(*p).dump());
    return Reply::ok;
  }
};

}  // namespace

nlohmann::json runner_job(const WorkerJob& job) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& in : job.inputs)
    inputs.push_back({{"name", in.name},
                      {"scalar", in.is_scalar},
                      {"dtype", to_string(in.dtype)},
                      {"shape", in.shape},
                      {"value", in.scalar_value},
                      {"weight", in.is_weight},
                      {"path", in.python_name}});
  return {{"backend", to_string(job.backend)},
          {"init", job.python_init},
          {"language", language(job.candidate_language).name},
          {"device", job.device},
          {"threads", job.threads},
          {"inputs", inputs},
          {"metrics", job.profile.metrics},
          {"tf32_cudnn", job.tf32_cudnn},
          {"launch_watch", job.launch_watch}};
}

// The runner is PID 1 of its namespace, and the kernel ignores the signals
// such a process sends itself (abort()'s SIGABRT, a raise()) unless it
// handles them: these handlers end it with 128 + the signal, which the judge
// reports as that signal.
static void exit_with_signal(int sig) {
  _exit(128 + sig);
}

// The runner's job and its candidate, the first message on the socket: the
// job's text and the candidate's descriptor.
static base::Result<std::pair<std::string, int>> receive_job() {
  TRY_ASSIGN(std::vector<int> fds, receive_fds(kRunnerSocketFd, 2));
  std::string text = read_all(fds[0]);
  close(fds[0]);
  return std::make_pair(std::move(text), fds[1]);
}

int runner_main(MakePython make_python) {
  for (int sig : {SIGABRT, SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU})
    signal(sig, exit_with_signal);
  signal(SIGXFSZ, SIG_IGN);  // a write past the file-size cap fails (EFBIG) instead
  Runner r;
  void* mapped = mmap(nullptr, sizeof(ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, kControlFd, 0);
  if (mapped == MAP_FAILED) return 3;
  r.block = static_cast<ControlBlock*>(mapped);
  ControlBlock& b = *r.block;
  auto hello = [&](Reply result, const std::string& text) {
    b.result = static_cast<int32_t>(result);
    set_text(b, text);
    post(b.reply, 1);
  };
  // The interpreter and torch (no job, no device, no model code) first: a
  // runner started ahead of its job has paid for them when the job comes. A
  // failure is said in the hello, once the judge is listening.
  std::string not_started;
  if (make_python) {
    r.python = make_python();
    if (auto started = r.python->start(); !started)
      not_started = "starting the Python runner: " + started.error().message;
  }
  auto delivered = receive_job();
  if (!delivered) return hello(Reply::failed, "the runner got no job: " + delivered.error().message), 2;
  r.candidate_fd = delivered->second;
  if (!not_started.empty()) return hello(Reply::failed, not_started), 2;
  nlohmann::json job;
  Backend& backend = r.backend;
  try {
    job = nlohmann::json::parse(delivered->first);
    auto named = parse_backend(job.at("backend").get<std::string>());
    auto language = parse_language(job.at("language").get<std::string>());
    if (!named || !language) {
      hello(Reply::failed, "the runner's job is malformed: " + (named ? language.error() : named.error()).message);
      return 2;
    }
    backend = *named;
    r.loader = eval::language(*language).loader;
    r.ordinal = job.at("device").get<int>();
    r.metrics = job.at("metrics").get<std::vector<std::string>>();
    for (const auto& in : job.at("inputs")) {
      ResolvedInput spec;
      spec.name = in.at("name").get<std::string>();
      spec.is_scalar = in.at("scalar").get<bool>();
      spec.dtype = *parse_dtype(in.at("dtype").get<std::string>());
      spec.shape = in.at("shape").get<std::vector<int64_t>>();
      spec.scalar_value = in.at("value").get<double>();
      r.names.push_back(spec.name);
      r.specs.push_back(std::move(spec));
    }
  } catch (const std::exception& e) {
    hello(Reply::failed, std::string("the runner's job is malformed: ") + e.what());
    return 2;
  }
  if (r.loader != Loader::python) r.python.reset();  // its interpreter stays idle: the candidate is a library
  auto device = make_device(backend, r.ordinal, job.value("threads", 0), job.value("tf32_cudnn", false));
  if (!device) return hello(Reply::failed, device.error().message), 2;
  r.device = std::move(device).value();
  // The bundle is read once the device is up (Triton is told where libcuda is), before the watch starts.
  if (r.loader == Loader::python && r.python)
    if (auto opened = r.python->open(r.candidate_fd); !opened)
      return hello(Reply::failed, "the Python candidate's bundle: " + opened.error().message), 2;
  // The launch watch starts with the device, so that the judge's measure of
  // a window's cost (before the candidate loads) includes what the watch adds.
  if (job.value("launch_watch", true))
    r.start_watch();
  else
    r.watch_note = "the launch watch was turned off (--no-launch-watch)";
  // The filter goes on before any model code is in the process, and the judge
  // reads whether it did before it lets the candidate load.
  auto filtered = eval::install_runner_filter(false);
  b.filtered = filtered ? 1 : 0;
  hello(Reply::ok, filtered ? "" : filtered.error().message);

  // Requests are numbered from 2 (the hello was reply 1), and none is sent
  // before the hello: the word still holds its initial 0.
  uint32_t last = 0;
  auto spin = 50us;
  for (;;) {
    uint32_t n = wait_change(b.request, last, spin);
    spin = 50us;
    Reply result = Reply::ok;
    switch (static_cast<Command>(b.command)) {
      case Command::attach:
        result = r.attach();
        break;
      case Command::load:
        switch (r.loader) {
          case Loader::shared_library:
            result = r.load_library();
            break;
          case Loader::python:
            result = r.load_python(job);
            break;
        }
        break;
      case Command::arm:
        spin = 1s;
        break;
      case Command::call:
        result = r.call();
        break;
      case Command::profile:
        result = r.loaded ? r.profile() : Reply::failed;
        break;
      case Command::exit:
        _exit(0);
      default:
        result = Reply::failed;
        set_text(b, "unknown command");
        break;
    }
    b.result = static_cast<int32_t>(result);
    post(b.reply, n);
    last = n;
  }
}

}  // namespace eval::worker
