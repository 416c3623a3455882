#!/usr/bin/env bash
# Runs the libFuzzer harnesses (fuzz/README.md) for SECONDS each, every one on a temporary copy
# of its corpus fuzz/corpus/NAME (the repository's corpus is never written), and prints the
# executions, coverage and findings of each. Exits 1 when one found a crash, a leak, a timeout
# or an out-of-memory, 2 on a usage error.
#
#   fuzz/run_all.sh SECONDS [HARNESS...]      (default: all; BUILD=dir overrides build-asan)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
all=(spec rational dot graphml simgrid schedule_json msccl wire)
if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ || $1 -eq 0 ]]; then
  echo "usage: $0 SECONDS [HARNESS...]   (harnesses: ${all[*]})" >&2
  exit 2
fi
seconds=$1
shift
harnesses=("$@")
[[ ${#harnesses[@]} -eq 0 ]] && harnesses=("${all[@]}")
bin=${BUILD:-$here/../build-asan}/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/starnet-fuzz.XXXXXX")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

found=()
printf '%-14s %12s %8s %8s  %s\n' harness executions cov ft findings
for name in "${harnesses[@]}"; do
  exe=$bin/${name}_fuzz
  if [[ ! -x $exe || ! -d $here/corpus/$name ]]; then
    echo "$name: no harness $exe or corpus $here/corpus/$name (cmake --preset asan && cmake --build --preset asan --target starnet_fuzz)" >&2
    exit 2
  fi
  max_len=8192
  [[ $name == wire ]] && max_len=4096
  mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
  cp -R "$here/corpus/$name/." "$work/$name/corpus/"
  log=$work/$name/log
  "$exe" -max_total_time="$seconds" -dict="$here/dict/$name.dict" -max_len=$max_len -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/" "$work/$name/corpus" \
    >"$log" 2>&1 || true
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+.* cov: ' "$log" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  artifacts=$(find "$work/$name/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) | sort)
  printf '%-14s %12s %8s %8s  %s\n' "$name" "${runs:-?}" "${cov:-?}" "${ft:-?}" \
    "$([[ -n $artifacts ]] && echo "FOUND (log: $log)" || echo none)"
  if [[ -n $artifacts ]]; then
    while read -r a; do found+=("$name $a"); done <<<"$artifacts"
  fi
done

if [[ ${#found[@]} -gt 0 ]]; then
  echo
  echo "Findings (each with its log beside it):"
  printf '  %s\n' "${found[@]}"
  echo "Reproduce with build-asan/bin/NAME_fuzz ARTIFACT; minimise with NAME_fuzz -minimize_crash=1 -runs=10000 ARTIFACT."
  echo "Once fixed, add the minimised input to fuzz/corpus/NAME/ as a regression input (a ctest test replays it)."
  exit 1
fi
rm -rf "$work"
