#!/usr/bin/env bash
# dist-size.sh MAX FILE...: print each release binary's size and fail when
# one exceeds MAX bytes, so the binary cannot grow without anyone noticing.
set -euo pipefail
max=$1
shift
rc=0
printf '%-28s %12s %8s\n' binary bytes MB
for f in "$@"; do
	n=$(stat -c %s "$f" 2>/dev/null || stat -f %z "$f")
	printf '%-28s %12d %8.1f\n' "$(basename "$f")" "$n" "$(echo "$n/1048576" | bc -l)"
	if [ "$n" -gt "$max" ]; then
		echo "dist-size: $f is $n bytes, over the budget of $max (DIST_MAX_BYTES in the Makefile)" >&2
		rc=1
	fi
done
[ $rc -eq 0 ] && echo "all binaries within the budget of $max bytes ($(echo "$max/1048576" | bc -l | cut -c1-5) MB)"
exit $rc
