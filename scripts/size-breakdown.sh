#!/usr/bin/env bash
# size-breakdown.sh BINARY [N]: what a Go binary is made of. Build it
# without -s -w (stripping drops only the symbol table and DWARF; the rest
# is the same). Prints the ELF sections that take file space (readelf), then
# the N largest modules/packages by machine code (T) and read-only data (R)
# from `go tool nm -size`. The .gopclntab section (function tables for
# stacks and GC) grows with the code, so code size is what to cut.
set -euo pipefail
bin=$1
n=${2:-25}
if command -v readelf >/dev/null; then
	echo "== sections in the file (MB)"
	readelf -S -W "$bin" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$2 != "NOBITS" && $2 != "NULL" {
		sz = 0; h = tolower($5)
		for (i = 1; i <= length(h); i++) sz = sz * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		if (sz >= 262144) printf "  %-14s %7.1f\n", $1, sz / 1048576
	}'
fi
echo "== largest modules/packages: code (T) + read-only data (R), MB"
go tool nm -size "$bin" | awk -v n="$n" '
$3 ~ /^[TtRr]$/ {
	size = $2; name = $4
	p = name
	slash = 0
	for (i = 1; i <= length(p); i++) if (substr(p, i, 1) == "/") slash = i
	dot = index(substr(p, slash + 1), ".")
	pkg = dot ? substr(p, 1, slash + dot - 1) : p
	if (pkg ~ /^type:/) pkg = "type: (runtime type data)"
	if (pkg ~ /^go:/) pkg = "go: (func metadata)"
	mod = pkg
	if (match(pkg, /^(github\.com|golang\.org|google\.golang\.org|gopkg\.in|go\.opentelemetry\.io)\/[^\/]+\/[^\/]+/)) mod = substr(pkg, 1, RLENGTH)
	else if (match(pkg, /^charm\.land\/[^\/]+/)) mod = substr(pkg, 1, RLENGTH)
	if (pkg ~ /^github\.com\/alice-trading\/alice/) mod = "github.com/alice-trading/alice (all packages)"
	if (mod !~ /\./) mod = "std: " mod
	if ($3 ~ /[Tt]/) code[mod] += size; else ro[mod] += size
	tot[mod] += size; total += size; tcode += ($3 ~ /[Tt]/) ? size : 0
}
END {
	cmd = "sort -rn | head -" n
	for (m in tot) printf "  %6.1f  (code %5.1f)  %s\n", tot[m] / 1048576, code[m] / 1048576, m | cmd
	close(cmd)
	printf "  %6.1f  (code %5.1f)  total\n", total / 1048576, tcode / 1048576
}'
