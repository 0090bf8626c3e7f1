set -uo pipefail
REFINERY_SESSION_S=560 REFINERY_SESSION_EVAL=0 REFINERY_DOCTOR_SIZES="small full" REFINERY_CHECK_IDS=level1/19 REFINERY_CHECK_CAP=90 \
  bench/gpu_session.sh doctor check attacks spread
