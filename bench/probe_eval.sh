#!/usr/bin/env bash
# On a GPU host: one evaluation with its diagnostics: status, message, the
# worker's last phase, phases_ms, the compile's headers and steps, and the
# tails of the worker's output. For a candidate that hangs or fails in a way
# a test cannot show.
#
#   bench/probe_eval.sh BUILD_DIR PROBLEM CANDIDATE [refinery eval flags...]
set -uo pipefail
bin=$1 problem=$2 candidate=$3
shift 3
out=${OUT:-/tmp}/probe-$(basename "$candidate" | tr . _).json
"$bin/refinery" eval --problem "$problem" --candidate "$candidate" --json "$@" > "$out" 2> "$out.err"
echo "rc=$? ($problem, $candidate, $*)"
python3 - "$out" <<'PY' || tail -20 "$out.err"
import json, sys
j = json.load(open(sys.argv[1]))
c = j.get("compile") or {}
print(j["status"], "|", j["message"][:400])
print("phase:", j.get("phase"), "| phases_ms:", {k: round(v) for k, v in (j.get("phases_ms") or {}).items()})
print("compile: %.2f s, headers: %s, steps: %s" % (c.get("seconds", 0), c.get("headers"), c.get("steps")))
for k in ("stdout_tail", "stderr_tail"):
    if j.get(k): print(k + ":", j[k][-1500:])
PY
