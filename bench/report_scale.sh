#!/usr/bin/env bash
# The report's cost on a large campaign: refinery_bench_campaign writes one of
# PROBLEMS x SAMPLES x TURNS attempts (default 250 x 4 x 10 = 10,000; instant
# fake model and evaluator), then `refinery report` (text, JSON and the HTML
# page) and `refinery export` (csv and jsonl) are timed on it, with their
# files' sizes and the peak memory.
#
#   bench/report_scale.sh [BUILD_DIR] [PROBLEMS] [SAMPLES] [TURNS]
set -euo pipefail
build=${1:-build}
problems=${2:-250}
samples=${3:-4}
turns=${4:-10}
dir=$(mktemp -d /tmp/refinery-report-scale-XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$build/refinery_bench_campaign" --out "$dir" --problems "$problems" --samples "$samples" --turns "$turns" > "$dir/campaign.json"
echo "campaign: $(cat "$dir/campaign.json")"
run=$dir/run
for what in report export-csv export-jsonl; do
  case "$what" in
    report) cmd=("$build/refinery" report "$run" --problems "$dir/problems" --html) ;;
    export-csv) cmd=("$build/refinery" export "$run" --problems "$dir/problems" --format csv) ;;
    export-jsonl) cmd=("$build/refinery" export "$run" --problems "$dir/problems" --format jsonl) ;;
  esac
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$dir/time" "${cmd[@]}" > /dev/null
    read -r seconds kb < "$dir/time"
    echo "$what run $i: ${seconds} s wall, peak RSS $((kb / 1024)) MB"
  done
done
attempts=$(wc -l < "$run/attempts.jsonl")
echo "attempts: $attempts"
for f in report.html report.json report.txt export/attempts.csv export/attempts.jsonl export/turns.csv; do
  echo "$f: $(stat -c %s "$run/$f") bytes"
done
