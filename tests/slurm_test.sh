#!/usr/bin/env bash
# refinery slurm against a real Slurm: a one-node cluster on this machine
# (munged, slurmctld, slurmd; loopback only), the quickstart submitted as a
# 4-shard job array on the cpu backend, waited for, and its merged report
# checked against the same campaign run in one process. The daemons are
# stopped at the end. Skips (exit 77, with the reason) where Slurm cannot be
# installed or started: not root, no apt, no network to Debian's mirror.
#
#   tests/slurm_test.sh BUILD_DIR        (ctest runs it as refinery_slurm)
set -uo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIPPED: refinery_slurm: $*"; exit 77; }
fail() { echo "FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || skip "starting a Slurm cluster needs root (CI runs as root)"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "slurm-wlm and munge are missing and there is no apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1; } ||
    skip "apt-get could not install slurm-wlm and munge"
fi

work=$(mktemp -d /tmp/refinery-slurm-XXXXXX)
started=()   # the daemons this test started (and so stops); ones already running are left alone
cleanup() {
  scancel --quiet --name="refinery-quickstart" 2>/dev/null
  for d in "${started[@]}"; do pkill -x "$d" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(free -m | awk '/Mem:/{print $2}') - 1024 ))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
if [ ! -f /etc/munge/munge.key ]; then
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
  chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
fi
chown munge:munge /run/munge
if pgrep -x slurmctld >/dev/null; then
  skip "a Slurm controller is running here already; this test starts its own cluster"
fi
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=refinery-test
SlurmctldHost=$host
SlurmctldAddr=127.0.0.1
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmUser=root
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
if ! pgrep -x munged >/dev/null; then
  runuser -u munge -- /usr/sbin/munged || skip "munged would not start"
  started+=(munged)
fi
/usr/sbin/slurmctld || skip "slurmctld would not start"
started+=(slurmctld)
pgrep -x slurmd >/dev/null && skip "a slurmd is running here already"
/usr/sbin/slurmd || skip "slurmd would not start"
started+=(slurmd)
for _ in $(seq 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo -h -o %T 2>/dev/null | grep -q idle || skip "the node never came up idle: $(sinfo 2>&1 | tail -2)"

cd "$src"
refinery="$build/refinery"
# The same campaign in one process, for the comparison (its compiles warm the cache for the shards):
# the quickstart scripts/setup.sh ran (runs/quickstart), copied and resumed with nothing left to do,
# or run here when there is none of this config.
if cmp -s runs/quickstart/config.yaml configs/quickstart.yaml && [ -s runs/quickstart/attempts.jsonl ]; then
  mkdir -p "$work/one"
  (cd runs/quickstart && tar --exclude=./lock --exclude=./labels.jsonl --exclude=./export -cf - .) | tar -C "$work/one" -xf -
fi
"$refinery" run configs/quickstart.yaml --out "$work/one" > "$work/one.log" 2>&1 || { cat "$work/one.log"; fail "the one-process run failed"; }

"$refinery" slurm configs/quickstart.yaml --shards 4 --out "$work/sharded" --dry-run > "$work/dry.txt" ||
  fail "refinery slurm --dry-run failed"
grep -q -- "--array=0-3" "$work/dry.txt" || fail "the job script has no 4-task array"
test ! -f "$work/sharded/slurm/job.json" || fail "--dry-run submitted a job"

"$refinery" slurm configs/quickstart.yaml --shards 4 --out "$work/sharded" || fail "refinery slurm could not submit"
start=$(date +%s)
job=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["job_id"])' "$work/sharded/slurm/job.json")
# Preempt the first shard that records an attempt: Slurm stops the task and
# queues it again, and the task resumes its shard (nothing lost, nothing twice).
diagnose() {
  echo "--- squeue"; squeue -a 2>&1 | head -20
  echo "--- sacct / scontrol"; scontrol show job "$job" 2>&1 | grep -E 'JobId|JobState|Reason|ExitCode|StdErr' | head -20
  echo "--- the run folder"; (cd "$work/sharded" && find . -maxdepth 3 | sort | head -40)
  for f in "$work"/sharded/slurm/*.out "$work"/sharded/slurm/*.err; do
    [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }
  done
  "$refinery" slurm --status "$work/sharded" 2>&1 | tail -20
}
victim=
until [ -n "$victim" ]; do
  for i in 0 1 2 3; do
    if [ -s "$work/sharded/shards/$i/attempts.jsonl" ]; then victim=$i; break; fi
  done
  [ -n "$victim" ] && break
  if (( $(date +%s) - start > 600 )); then diagnose; fail "no shard recorded an attempt in 600 s"; fi
  sleep 0.5
done
before=$(wc -l < "$work/sharded/shards/$victim/attempts.jsonl")
scontrol requeue "${job}_$victim" || { diagnose; fail "scontrol requeue ${job}_$victim failed"; }
echo "requeued shard $victim (task ${job}_$victim) after $before recorded attempts"
while true; do
  "$refinery" slurm --status "$work/sharded" > "$work/status.txt" 2>&1
  code=$?
  [ "$code" = 0 ] && break
  # A requeued task passes through states squeue may not list for a moment:
  # a failure counts once it is said three times running.
  if [ "$code" = 2 ]; then bad=0; else bad=$(( ${bad:-0} + 1 )); fi
  if [ "${bad:-0}" -ge 3 ]; then
    diagnose; fail "a shard failed (status exit $code)"
  fi
  (( $(date +%s) - start > 900 )) && { diagnose; fail "the shards did not finish in 900 s"; }
  sleep 2
done
cat "$work/status.txt"
echo "sharded campaign: $(( $(date +%s) - start )) s from submission to the last shard done"
restarts=$(scontrol show job "${job}_$victim" 2>/dev/null | grep -o 'Restarts=[0-9]*' | head -1)
echo "shard $victim: ${restarts:-Restarts unknown (the controller no longer lists the job)}"
case "$restarts" in Restarts=0) fail "shard $victim was never requeued";; esac
python3 - "$work/sharded/shards/$victim/attempts.jsonl" "$victim" <<'PY' || fail "shard $victim recorded an attempt twice after its requeue"
import json, sys
keys = [json.loads(l)["key"] for l in open(sys.argv[1]) if l.strip()]
assert len(keys) == len(set(keys)), keys
print(f"shard {sys.argv[2]} after its requeue: {len(keys)} attempts, each once")
PY

"$refinery" report "$work/sharded" --json > "$work/merged.json" 2> "$work/merged.err" || { cat "$work/merged.err"; fail "report of the shards failed"; }
"$refinery" report "$work/one" --json > "$work/one.json" || fail "report of the one-process run failed"
python3 - "$work/merged.json" "$work/one.json" <<'PY' || fail "the merged report differs from the one-process report"
import json, sys
merged, one = (json.load(open(p)) for p in sys.argv[1:3])
assert merged["shards"]["count"] == 4 and merged["shards"]["read"] == 4, merged["shards"]
assert merged["shards"]["problems"] == [], merged["shards"]["problems"]
def verdicts(r):
    # What does not depend on a cpu's timing noise: attempts, statuses, correct rates, fast_0.
    return [(a["model"], a["strategy"], a["attempts"], a["attempts_by_status"],
             [(t["turn"], t["correct_rate"], t["fast_p"]["0"], t["chains_with_correct"]) for t in a["turns"]])
            for a in r["arms"]]
assert verdicts(merged) == verdicts(one), (verdicts(merged), verdicts(one))
print("merged report of 4 shards = the one-process report:", verdicts(merged)[0][2], "attempts",
      verdicts(merged)[0][3])
PY
echo "slurm: ok"
