#!/usr/bin/env bash
# Runs the given jest paths ROUNDS times in a row with BUSY busy loops (one per core) running beside
# them, and prints one line per round: exit code, wall time, failures and stall dumps
# (test/support/stall-dump.ts). Compile first (npx tsc -p tsconfig.json): jest's global setup imports dist/.
#   ROUNDS=5 BUSY=2 bench/ci-stress.sh test/system/scale-out.test.ts test/system/two-instances.test.ts
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
busy=${BUSY:-2}
logs=${LOGS:-$(mktemp -d /tmp/ci-stress-XXXX)}
mkdir -p "$logs"
loops=()
stop_loops() { for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done; loops=(); }
trap stop_loops EXIT
for ((i = 0; i < busy; i++)); do timeout 3600 sh -c 'while :; do :; done' & loops+=($!); done
echo "# $(date -u +%FT%TZ) rounds=$rounds busy-loops=$busy paths: $* logs: $logs"
for ((round = 1; round <= rounds; round++)); do
  start=$(date +%s.%N)
  NODE_OPTIONS=--experimental-vm-modules npx jest "$@" >"$logs/round-$round.log" 2>&1
  code=$?
  took=$(echo "$(date +%s.%N) - $start" | bc)
  load=$(cut -d' ' -f1 /proc/loadavg)
  summary=$(grep -E '^Tests:' "$logs/round-$round.log" | tail -1)
  stalls=$(grep -c 'still waiting after' "$logs/round-$round.log")
  printf 'round %d exit %d %.1f s load1 %s stall-dumps %d | %s\n' "$round" "$code" "$took" "$load" "$stalls" "$summary"
done
