#!/usr/bin/env bash
# What Nsight Compute needs from a process it profiles: which variables it
# injects, and whether a user, network or PID namespace between ncu and its
# target stops it. Prints one line per case; run on a GPU host.
set -uo pipefail
out=${OUT:-/tmp/refinery-ncu-probe}
mkdir -p "$out"
work="$PWD/.ncu-probe"; rm -rf "$work"; mkdir -p "$work"
cat > "$work/tiny.cu" <<'CU'
#include <cstdio>
__global__ void tiny_relu(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] > 0 ? x[i] : 0; }
int main() { float* x; cudaMalloc(&x, 1 << 24); tiny_relu<<<(1 << 22) / 256, 256>>>(x, 1 << 22); cudaDeviceSynchronize(); std::puts("tiny ran"); return 0; }
CU
nvcc -o "$work/tiny" "$work/tiny.cu" || exit 1
ncu=$(command -v ncu)
echo "ncu: $ncu -> $(readlink -f "$ncu")"
"$ncu" --target-processes all env 2>&1 | grep -vE '^(PATH|HOME|PWD|SHLVL|_|OLDPWD)=' | grep -iE 'nv|cuda|ld_|inject|nsight|tmp' > "$out/ncu_env.txt"
echo "variables ncu gives its target:"; sed 's/^/  /' "$out/ncu_env.txt"
case_run() {
  local name=$1; shift
  local log="$out/case_$name.log"
  timeout 60 "$ncu" --csv --metrics gpu__time_duration.sum --target-processes all "$@" > "$log" 2>&1
  local rc=$?
  local rows; rows=$(grep -c 'tiny_relu' "$log")
  echo "case $name: rc $rc, kernel rows $rows; $(grep -m1 -E 'ERROR|WARN' "$log")"
}
case_run plain "$work/tiny"
case_run userns unshare -r "$work/tiny"
case_run netns unshare -rn "$work/tiny"
case_run pidns unshare -rp --fork --mount-proc "$work/tiny"
case_run mountns_tmp unshare -rm sh -c "mount -t tmpfs tmpfs /tmp && $work/tiny"
case_run env_cleared env -i PATH=/usr/bin:/bin "$work/tiny"
ls -la /tmp | grep -iE 'nsight|ncu|nv' | head
rm -rf "$work"
