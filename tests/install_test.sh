#!/usr/bin/env bash
# refinery installed into a temporary prefix runs from there, away from its
# source tree: `problems list` finds the installed suite, and the quickstart
# (its prompts, problems, config and worker all from the prefix) completes.
#
#   tests/install_test.sh BUILD_DIR       (ctest runs it as refinery_install)
set -euo pipefail
build=$1
prefix=$(mktemp -d /tmp/refinery-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
cd "$prefix"
unset REFINERY_PROBLEMS REFINERY_PROMPTS
listed=$("$prefix/bin/refinery" problems list | tail -1)
echo "$listed"
case "$listed" in
  *" problems in $prefix/share/refinery/problems") ;;
  *) echo "FAILED: the installed refinery did not list the installed suite" >&2; exit 1 ;;
esac
# The quickstart's compiles are in the default cache once scripts/setup.sh has run it.
if ! "$prefix/bin/refinery" run "$prefix/share/refinery/configs/quickstart.yaml" --out "$prefix/run" > "$prefix/run.log" 2>&1; then
  cat "$prefix/run.log" >&2
  echo "FAILED: the installed quickstart did not complete" >&2
  exit 1
fi
grep "quickstart x refine" "$prefix/run.log"
test "$(wc -l < "$prefix/run/attempts.jsonl")" -eq 15 || { echo "FAILED: expected 15 attempts" >&2; exit 1; }
echo "install: the installed refinery ran the quickstart from $prefix"
