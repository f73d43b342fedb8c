#!/usr/bin/env bash
# `make test-repeat`: run chosen tests N times and count the runs that failed, the guard against tests
# that pass or fail by the machine's timing (#54). BUSY CPU-bound processes run beside every run (a
# loaded CI machine); they are ended, by their ids, when the script ends. A failed run's output is kept.
# Usage: bash scripts/test_repeat.sh PYTHON N K TESTS BUSY
#   K: a pytest -k expression ('' runs every test of TESTS); TESTS: test paths, space-separated.
set -u
py=$1 n=$2 k=$3 tests=$4 busy=$5
for pair in "N:$n" "BUSY:$busy"; do
  [[ ${pair#*:} =~ ^[0-9]+$ ]] || { echo "test-repeat: ${pair%%:*}=${pair#*:} is not a whole number" >&2; exit 2; }
done
(( n >= 1 )) || { echo "test-repeat: N=$n; it must be at least 1" >&2; exit 2; }
read -r -a paths <<< "$tests"
args=(-q -p no:cacheprovider -o console_output_style=count "${paths[@]}")
[[ -n $k ]] && args+=(-k "$k")
logs=$(mktemp -d "${TMPDIR:-/tmp}/test-repeat.XXXXXX")

burners=()
stop_burners() { for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_burners EXIT
for _ in $(seq 1 "$busy"); do
  "$py" -c 'while True: pass' &
  burners+=($!)
done
beside=$([[ $busy -gt 0 ]] && echo ", beside $busy CPU-bound process(es)")

echo "test-repeat: $n runs of pytest ${args[*]}$beside"
failures=0
for i in $(seq 1 "$n"); do
  log=$logs/run-$i.log
  "$py" -m pytest "${args[@]}" > "$log" 2>&1
  rc=$?
  summary=$(tail -n 1 "$log")
  if (( rc == 5 )); then echo "test-repeat: no test matches K='$k' in $tests" >&2; exit 2; fi
  if (( rc > 1 )); then tail -n 20 "$log" >&2; echo "test-repeat: pytest stopped (exit $rc), see $log" >&2; exit "$rc"; fi
  if (( rc == 0 )); then
    echo "run $i/$n: passed ($summary)"
    rm -f "$log"
  else
    failures=$((failures + 1))
    echo "run $i/$n: FAILED ($summary)"
    grep -E '^(FAILED|ERROR) ' "$log" | sed 's/^/  /'
  fi
done
echo "test-repeat: runs $n, failures $failures$beside"
rmdir "$logs" 2>/dev/null || echo "test-repeat: the failed runs' output is in $logs"
(( failures == 0 ))
