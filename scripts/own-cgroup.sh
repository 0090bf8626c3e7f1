#!/usr/bin/env bash
# Runs a command in a cgroup v2 of its own with the memory controller given to
# it, where refinery can make a memory cgroup for every runner and compiler:
# what `systemd-run --scope -p Delegate=yes CMD` does, for a machine (a
# container, a GPU host) without systemd. Needs write access to the cgroup this
# shell is in, as root in a container usually has.
#
#   scripts/own-cgroup.sh CMD [ARG...]
#
# The processes already in this shell's cgroup move to a leaf `others` beside
# it (a cgroup v2 with processes cannot hand controllers down), and CMD runs
# alone in a new leaf `refinery-PID`. Where that cannot be done it says why and runs CMD
# as it is; `refinery doctor` then names what the runner goes without.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: scripts/own-cgroup.sh CMD [ARG...]" >&2; exit 2; }
rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
mount=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -z "$rel" ] || [ -z "$mount" ]; then
  echo "own-cgroup: no cgroup v2 here; running without a cgroup of its own" >&2
  exec "$@"
fi
cg=$mount${rel%/}
try() {
  grep -qw memory "$cg/cgroup.controllers" 2>/dev/null || return 1
  mkdir -p "$cg/others" && mkdir "$cg/refinery-$$" 2>/dev/null || return 1
  local p
  for p in $(cat "$cg/cgroup.procs"); do
    echo "$p" > "$cg/others/cgroup.procs" 2>/dev/null || true  # kernel threads and the gone stay
  done
  echo +memory > "$cg/cgroup.subtree_control" 2>/dev/null || return 1
}
if ! try; then
  echo "own-cgroup: cannot give $cg's memory controller to a cgroup of refinery's; running without one" >&2
  exec "$@"
fi
# CMD alone in its leaf: a subshell moves itself there, then becomes CMD.
exec sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg/refinery-$$" "$@"
