#!/usr/bin/env bash
# Sets up refinery on a fresh Debian/Ubuntu machine: installs the packages it
# builds against, configures and builds into build/, then runs the quickstart.
#
#   scripts/setup.sh                  install, build, quickstart
#   scripts/setup.sh --no-quickstart  install and build only
#
# Packages come from the distribution (LibTorch is Debian's CPU build,
# libtorch-dev). Where nvcc is installed (CUDA toolkit), the cuda backend's
# compile step is built too; running kernels needs a GPU host, see
# scripts/gpu-host.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build libtorch-dev libcurl4-openssl-dev libyaml-cpp-dev
          nlohmann-json3-dev doctest-dev python3-torch python3-dev pybind11-dev
          chromium fonts-liberation python3-pandas)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ -f build/CMakeCache.txt ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"

if [ "${1:-}" != "--no-quickstart" ]; then
  # The quickstart: an offline three-turn campaign over five problems on recorded
  # responses (configs/quickstart.yaml), on this machine's backend, then its report.
  # Run again, it resumes: nothing is redone.
  build/refinery run configs/quickstart.yaml --out runs/quickstart
fi
