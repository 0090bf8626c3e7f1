#!/usr/bin/env bash
# Formats refinery's own C++ sources with clang-format (.clang-format), or with
# --check lists the files it would change and exits 1 if there are any. The
# problems' references, the candidates in tests/fixtures and the exploit
# catalogue (tests/integrity) are left as written: they are inputs, and some
# are written the way models write kernels.
#
#   scripts/format.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$(command -v clang-format || command -v clang-format-14 || true)
[ -n "$tool" ] || { echo "format: no clang-format on PATH (apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files 'agent/*.cc' 'agent/*.h' 'base/*.cc' 'base/*.h' 'eval/*.cc' 'eval/*.h' \
  'profiler/*.cc' 'profiler/*.h' 'bench/*.cc' 'tests/*.cc' 'tests/*.h' | grep -vE '^tests/(fixtures|integrity)/')
if [ "${1:-}" = --check ]; then
  bad=()
  for f in "${files[@]}"; do
    "$tool" --dry-run --Werror "$f" > /dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    printf 'format: not as clang-format writes it (scripts/format.sh fixes): %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files as clang-format writes them"
else
  "$tool" -i "${files[@]}"
fi
