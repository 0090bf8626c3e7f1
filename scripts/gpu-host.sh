#!/usr/bin/env bash
# Builds refinery on a GPU host against the LibTorch inside the installed
# PyTorch (with CUDA and CUPTI), then optionally runs what needs the GPU.
#
#   scripts/gpu-host.sh build            configure and build into build-gpu/
#   scripts/gpu-host.sh test             build, then the GPU tests (tests/gpu)
#   scripts/gpu-host.sh check [ARGS]     build, then `refinery problems check --backend cuda ARGS`
#
# What this needs on the host: python3 with torch (CUDA build), the CUDA
# toolkit (nvcc), CMake >= 3.25, Ninja or make, and the headers of libcurl,
# yaml-cpp, nlohmann_json and doctest. REFINERY_BUILD_DIR overrides build-gpu.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${REFINERY_BUILD_DIR:-build-gpu}
what=${1:-build}
shift || true

torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  # CUDA_HOME lets Torch's CMake find the toolkit without a CUDA language step.
  export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
  cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$torch_prefix" -DCUDAToolkit_ROOT="$CUDA_HOME"
fi
cmake --build "$build" -j"$(nproc)"

case "$what" in
  build) ;;
  test)
    "$build/tests/refinery_gpu_tests" "$@"
    ;;
  check)
    "$build/refinery" problems check --backend cuda "$@"
    ;;
  *) echo "unknown step '$what' (build, test or check)" >&2; exit 2 ;;
esac
