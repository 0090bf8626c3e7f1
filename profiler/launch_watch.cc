#include "profiler/launch_watch.h"

#include "build_info.h"
#include "profiler/cupti.h"

#if REFINERY_WITH_CUDA
#include <cupti.h>
#include <dlfcn.h>

#include <map>
#include <mutex>
#include <string_view>
#endif

namespace profiler {

#if REFINERY_WITH_CUDA
namespace {

enum class Watched { launch, graph, stream };

struct Hook {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  Watched what;
  int func_at = -1;  // a runtime launch: which pointer of its parameters is the kernel's host stub
};

// Every call that launches a kernel, launches a graph or creates a stream.
constexpr Hook kHooks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020, Watched::launch, 0},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000, Watched::launch, 0},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, Watched::launch, 0},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000, Watched::launch, 0},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, Watched::launch, 1},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060, Watched::launch, 1},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, Watched::launch, 0},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000, Watched::launch, 0},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
     Watched::launch},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, Watched::graph},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000, Watched::graph},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020, Watched::stream},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000, Watched::stream},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050, Watched::stream},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunch, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice, Watched::launch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, Watched::graph},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, Watched::graph},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamCreate, Watched::stream},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority, Watched::stream},
};

std::string cupti_message(CUptiResult r) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  return s ? s : "CUPTI error " + std::to_string(static_cast<int>(r));
}

// A runtime call that goes on to the driver is counted at the runtime: the
// driver's callbacks inside it are not counted again.
thread_local int t_runtime_depth = 0;

}  // namespace

struct LaunchWatch::State {
  CUpti_SubscriberHandle subscriber = nullptr;
  std::mutex mutex;
  // Looked up by string_view (std::less<>): a launch's callback allocates nothing.
  std::set<std::string, std::less<>> own;  // mangled and demangled
  const void* library_base = nullptr;      // where the candidate's library is loaded
  LaunchTally tally;
  std::map<std::string, int64_t, std::less<>> others;  // launches since the last take, by name

  void learn(const std::string& name) {
    own.insert(name);
    own.insert(demangle(name.c_str()));
  }

  // `stub`: a runtime launch's host stub. nvcc may give a kernel of internal
  // linkage (static, an anonymous namespace) a device name of its own, so a
  // stub in the candidate's library makes the kernel its own whatever the
  // name, and the name is learned for the traced calls' records.
  void count(Watched what, const char* name, const void* stub) {
    std::lock_guard<std::mutex> lock(mutex);
    switch (what) {
      case Watched::graph:
        ++tally.graphs;
        break;
      case Watched::stream:
        ++tally.streams;
        break;
      case Watched::launch: {
        const std::string_view key = name ? std::string_view(name) : std::string_view("?");
        bool mine = name && own.find(key) != own.end();
        Dl_info info{};
        if (!mine && stub && library_base && dladdr(stub, &info) && info.dli_fbase == library_base) {
          mine = true;
          if (name) learn(name);
        }
        if (mine) {
          ++tally.own;
        } else {
          ++tally.other;
          if (auto it = others.find(key); it != others.end())
            ++it->second;
          else
            others.emplace(std::string(key), 1);
        }
        break;
      }
    }
  }
};

namespace {

void CUPTIAPI on_callback(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  const bool enter = cb->callbackSite == CUPTI_API_ENTER;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) t_runtime_depth += enter ? 1 : -1;
  if (!enter || (domain == CUPTI_CB_DOMAIN_DRIVER_API && t_runtime_depth > 0)) return;
  for (const Hook& h : kHooks) {
    if (h.domain != domain || h.cbid != cbid) continue;
    const void* stub =
        h.func_at >= 0 && cb->functionParams ? static_cast<const void* const*>(cb->functionParams)[h.func_at] : nullptr;
    return static_cast<LaunchWatch::State*>(user)->count(h.what, cb->symbolName, stub);
  }
}

}  // namespace

base::Result<std::unique_ptr<LaunchWatch>> LaunchWatch::start(const std::vector<std::string>& own) {
  std::unique_ptr<LaunchWatch> w(new LaunchWatch());
  w->state_ = std::make_unique<State>();
  for (const auto& name : own) w->state_->learn(name);
  CUptiResult r =
      cuptiSubscribe(&w->state_->subscriber, reinterpret_cast<CUpti_CallbackFunc>(on_callback), w->state_.get());
  if (r != CUPTI_SUCCESS) return base::Error{"cuptiSubscribe: " + cupti_message(r)};
  for (const Hook& h : kHooks) {
    r = cuptiEnableCallback(1, w->state_->subscriber, h.domain, h.cbid);
    if (r != CUPTI_SUCCESS) return base::Error{"cuptiEnableCallback: " + cupti_message(r)};
  }
  return w;
}

LaunchWatch::~LaunchWatch() {
  if (state_ && state_->subscriber) cuptiUnsubscribe(state_->subscriber);
}

void LaunchWatch::set_library(const void* address) {
  Dl_info info{};
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->library_base = address && dladdr(address, &info) ? info.dli_fbase : nullptr;
}

base::Status LaunchWatch::trace(const std::function<base::Status()>& call) {
  int64_t launched = 0;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    launched = state_->tally.own + state_->tally.other;
  }
  base::Status status;
  auto traced = record_kernels([&] { return status = call(); });
  if (!status) return status;
  if (!traced) return traced.error();
  std::lock_guard<std::mutex> lock(state_->mutex);
  launched = state_->tally.own + state_->tally.other - launched;
  // Graph-launched kernels add records; fewer records than launches means a
  // launch failed and the call went on regardless, or something in the
  // process turned the activity records off.
  if (static_cast<int64_t>(traced->kernels.size()) < launched)
    return base::Error{"CUPTI recorded " + std::to_string(traced->kernels.size()) + " kernels of the " +
                       std::to_string(launched) +
                       " launched: a launch failed unchecked, or the activity records were turned off"};
  for (const auto& k : traced->kernels)
    (state_->own.find(k.name) != state_->own.end() ? state_->tally.own_us : state_->tally.other_us) += k.duration_us;
  return {};
}

base::Result<LaunchTally> LaunchWatch::take() {
  // The runtime's and the driver's kernel launch stand for the rest: turning
  // one callback off takes the subscriber's handle, which only the watch
  // holds, while cuptiFinalize or cuptiUnsubscribe turns them all off. Two
  // queries a request keep what the watch adds to a timed window small.
  for (const Hook& h :
       {Hook{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, Watched::launch},
        Hook{CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, Watched::launch}}) {
    uint32_t enabled = 0;
    CUptiResult r = cuptiGetCallbackState(&enabled, state_->subscriber, h.domain, h.cbid);
    if (r != CUPTI_SUCCESS || !enabled)
      return base::Error{"the runner's launch watch (CUPTI's callbacks) was turned off" +
                         (r != CUPTI_SUCCESS ? ": " + cupti_message(r) : std::string())};
  }
  std::lock_guard<std::mutex> lock(state_->mutex);
  LaunchTally out = state_->tally;
  for (const auto& [name, n] : state_->others)
    if (n > out.top_other_launches) out.top_other = demangle(name.c_str()), out.top_other_launches = n;
  state_->tally = {};
  state_->others.clear();
  return out;
}

#else  // without CUDA

struct LaunchWatch::State {};

base::Result<std::unique_ptr<LaunchWatch>> LaunchWatch::start(const std::vector<std::string>&) {
  return base::Error{"this refinery-worker was built without CUDA: no launch watch"};
}
LaunchWatch::~LaunchWatch() = default;
void LaunchWatch::set_library(const void*) {}
base::Status LaunchWatch::trace(const std::function<base::Status()>& call) {
  return call();
}
base::Result<LaunchTally> LaunchWatch::take() {
  return LaunchTally{};
}

#endif

}  // namespace profiler
