#!/usr/bin/env bash
# Storage read costs: readSession (limit 20) and the inbox's newest page on
# small and very long files. Tail reads must cost what they return, not the
# file: the script prints the 100k/100 ratio and fails above MAX_RATIO (3).
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_RATIO=${MAX_RATIO:-3}
OUT=$(go test -run '^$' -bench 'BenchmarkReadSession|BenchmarkInboxList' -benchmem -benchtime "${BENCHTIME:-300x}" -count 1 ./core/aitools/ ./core/inbox/)
echo "$OUT" | grep -E '^Benchmark'
fail=0
for b in ReadSession InboxList; do
	small=$(echo "$OUT" | awk -v b="Benchmark$b/lines=100-" 'index($1,b)==1{print $3}')
	big=$(echo "$OUT" | awk -v b="Benchmark$b/lines=100000-" 'index($1,b)==1{print $3}')
	[ -n "$small" ] && [ -n "$big" ] || continue
	ratio=$(awk -v a="$big" -v b="$small" 'BEGIN{printf "%.2f", a/b}')
	echo "== $b: 100k lines ${big} ns/op, 100 lines ${small} ns/op, ratio ${ratio} (max ${MAX_RATIO})"
	awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN{exit !(r>m)}' && fail=1
done
exit $fail
