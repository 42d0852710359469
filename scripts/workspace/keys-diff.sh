#!/usr/bin/env bash
# Differential key check against tmux: each burst of keys in the table is
# sent with ONE `tmux send-keys` call (so it arrives in one read) to
#   (a) a bare tmux pane running a byte dumper, and
#   (b) the same dumper in a shell session attached in alice's Workspaces
#       pane (the real binary, itself running in tmux),
# and the bytes the two dumpers read must be the same — or, for the few
# rows marked with an expected alice value, that value (a documented,
# deliberate difference: see the row's comment).
#
# The dumper puts its terminal in raw mode, turns bracketed paste on and
# appends every byte it reads to a file; the script empties both files
# before each row. A second pass turns on application cursor keys (DECCKM)
# in both panes, by writing the mode to each dumper's tty from outside; a
# third the kitty keyboard protocol in alice's (tmux 3.3a has none).
#
# Needs tmux. Uses a throw-away ALICE_HOME. Prints the table; exits 1 on
# any unexpected difference. KEYS_DIFF_REPORT=1 prints the table and exits
# 0 whatever it found (to survey).
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=keys-diff
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

REF="$SOCK-ref"
trap 'tmux -L "$REF" kill-server 2>/dev/null || true; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$REF"; cleanup' EXIT
ref() { tmux -L "$REF" "$@"; }

# The dumper: raw mode, bracketed paste on, its tty's name in FILE.tty,
# FILE.ready when it reads, every byte read appended to FILE.
cat >"$WORK/dump.sh" <<'EOF'
#!/bin/sh
tty >"$1.tty"
stty raw -echo
printf '\033[?2004h'
: >"$1"
: >"$1.ready"
exec cat >>"$1"
EOF
chmod +x "$WORK/dump.sh"
REF_OUT="$WORK/ref.out" ALICE_OUT="$WORK/alice.out"

wait_ready() { # wait_ready FILE: the dumper writing FILE is reading
	local deadline=$((SECONDS + WAIT))
	until [ -e "$1.ready" ]; do
		[ $SECONDS -lt $deadline ] || fail "the dumper for $1 did not start"
		sleep 0.1
	done
}

build_alice
write_home
start_alice 120 36
tmux -L "$SOCK" set -g escape-time 0
ref -f /dev/null new-session -d -x 120 -y 36 "'$WORK/dump.sh' '$REF_OUT'; sleep 60"
ref set -g escape-time 0

step "start a shell in a workspace and the dumper in it"
wait_for "Workspaces"
new_shell_workspace "keys-ws"
keys -l "'$WORK/dump.sh' '$ALICE_OUT'"
keys Enter
wait_ready "$ALICE_OUT"
wait_ready "$REF_OUT"

size() { stat -c %s "$1"; }
hex() { od -An -v -tx1 "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }

# settle FILE [MIN]: wait until FILE has at least MIN bytes (default 1) and
# has not grown for 0.3 s, or 3 s have passed. A burst that ends in a lone
# ESC reaches the dumper only after alice's input parser gave up waiting
# for the rest of an escape sequence (50 ms).
settle() {
	local f=$1 min=${2:-1} last=-1 n stable=0 i
	for ((i = 0; i < 60; i++)); do
		n=$(size "$f")
		if [ "$n" -ge "$min" ] && [ "$n" -eq "$last" ]; then
			stable=$((stable + 1))
			[ $stable -ge 6 ] && return 0
		else
			stable=0
		fi
		last=$n
		sleep 0.05
	done
}

FAILS=0
# send TARGET-SERVER ARGS...: the row's keys to one of the two panes.
send() {
	local srv=$1
	shift
	if [ "$1" = paste ]; then
		tmux -L "$srv" set-buffer -b kd -- "$2"
		tmux -L "$srv" paste-buffer -p -b kd
	else
		tmux -L "$srv" send-keys "$@"
	fi
}

# row NAME EXPECTED-ALICE-HEX|- SEND... : SEND is a send-keys argument list,
# or "paste TEXT" for a bracketed paste (set-buffer + paste-buffer -p).
# The keys go to both panes at once; alice's dumper is read once it has as
# many bytes as tmux's (or 3 s have passed) and nothing more comes.
row() {
	local name=$1 want=$2
	shift 2
	: >"$REF_OUT"
	: >"$ALICE_OUT"
	send "$REF" "$@"
	send "$SOCK" "$@"
	settle "$REF_OUT" 0
	settle "$ALICE_OUT" "$(size "$REF_OUT")"
	local rhex ahex verdict=ok
	rhex=$(hex "$REF_OUT")
	ahex=$(hex "$ALICE_OUT")
	[ "$want" = - ] && want=$rhex
	if [ "$ahex" != "$want" ]; then
		verdict=DIFF
		FAILS=$((FAILS + 1))
	elif [ "$ahex" != "$rhex" ]; then
		verdict="ok (documented)"
	fi
	printf '%-26s | %-32s | %-32s | %s\n' "$name" "$rhex" "$ahex" "$verdict"
}

header() { printf '%-26s | %-32s | %-32s | %s\n' "keys ($1)" "tmux" "alice" ""; }

step "normal cursor keys"
header "send-keys"
row "Escape" - Escape
row "Escape Escape" - Escape Escape
row "Escape Escape Escape" - Escape Escape Escape
row "Escape ×4" - Escape Escape Escape Escape
row "M-Escape" - M-Escape
row "C-[" - C-[
row "C-[ C-[" - C-[ C-[
row "Escape a" - Escape a
row "Escape Escape a" - Escape Escape a
row "M-a" - M-a
row "M-A" - M-A
row "C-M-a" - C-M-a
row "Escape [ A (literal)" - Escape [ A
# ESC O A is Up (what a terminal under DECCKM sends for it); alice sends
# the session Up in the session's own cursor mode. tmux does the same with
# these bytes when they come from a terminal: a tmux client in a tmux pane
# given `send-keys Escape O A` hands its own pane ESC [ A.
row "Escape O A (literal)" "1b 5b 41" Escape O A
row "Escape Escape [ A" - Escape Escape [ A
row "Escape Up" - Escape Up
row "Escape : w q Enter" - Escape : w q Enter
row "Escape j j (vim)" - Escape j j
row "i x Escape" - i x Escape
row "M-[" - M-[
row "M-O" - M-O
row "M-Enter" - M-Enter
row "M-BSpace" - M-BSpace
row "M-Tab" - M-Tab
row "BTab" - BTab
row "M-BTab" - M-BTab
row "Escape Escape Up" - Escape Escape Up
row "C-Space" - C-Space
row "C-a C-e C-z" - C-a C-e C-z
row "Enter Tab BSpace" - Enter Tab BSpace
row "Up Down Right Left" - Up Down Right Left
row "S-Up C-Down M-Right" - S-Up C-Down M-Right
row "C-S-Left C-M-Up" - C-S-Left C-M-Up
# tmux sends its own (TERM=tmux/screen) Home and End, CSI 1 ~ / CSI 4 ~;
# a session's TERM is xterm-256color, whose Home and End alice sends.
row "Home End" "1b 5b 48 1b 5b 46" Home End
row "S-Home C-End" - S-Home C-End
row "IC DC PPage NPage" - IC DC PPage NPage
row "F1 F2 F3 F4" - F1 F2 F3 F4
row "F5 F6 F12" - F5 F6 F12
row "S-F1 C-F5 M-F12" - S-F1 C-F5 M-F12
row "text é €" - -l "hé €x"
row "literal ESC ESC via -l" - -l $'\e\e'
row "bracketed ESC text (-l)" - -l $'\e[200~a\eb\e\e[201~'
row "paste plain" - paste "hello world"
row "paste with ESC" - paste $'x\ey\e[Az\e'
row "paste ESC ESC" - paste $'\e\e'
row "paste CSI with a space" - paste $'a\e[1;2 xyz'
row "paste OSC title" - paste $'A\e]0;t\aB'
row "paste OSC 8 link" - paste $'A\e]8;;https://x.example\e\\link\e]8;;\e\\B'
row "paste ending ESC [" - paste $'a\e['
row "paste unterminated OSC" - paste $'A\e]0;tB'
row "paste after it" - paste 'ok'

step "application cursor keys (DECCKM)"
printf '\033[?1h' >"$(cat "$REF_OUT.tty")"
printf '\033[?1h' >"$(cat "$ALICE_OUT.tty")"
sleep 0.3
header "DECCKM"
row "Up Left" - Up Left
row "Escape Up" - Escape Up
row "Escape O A (literal)" - Escape O A
row "Escape Escape" - Escape Escape
row "Home End" "1b 4f 48 1b 4f 46" Home End
row "C-Up" - C-Up

# tmux 3.3a has no kitty keyboard protocol, so the reference pane reads
# legacy bytes here; the rows give what alice must send. Codex (crossterm)
# turns the protocol on: Escape Escape used to reach it as one alt+esc.
step "kitty keyboard protocol (disambiguate) in alice's session"
printf '\033[?1l' >"$(cat "$REF_OUT.tty")"
printf '\033[?1l\033[>1u' >"$(cat "$ALICE_OUT.tty")"
sleep 0.3
header "kitty"
E='1b 5b 32 37 75' # CSI 27 u: Escape
row "Escape" "$E" Escape
row "Escape Escape" "$E $E" Escape Escape
row "Escape Escape Escape" "$E $E $E" Escape Escape Escape
# ESC ESC is alt+esc only in a terminal that reports keys this way too.
row "M-Escape" "$E $E" M-Escape
row "Escape Escape a" "$E 1b 5b 39 37 3b 33 75" Escape Escape a
row "Escape Up" "$E 1b 5b 41" Escape Up

echo
if [ "$FAILS" -gt 0 ] && [ -z "${KEYS_DIFF_REPORT:-}" ]; then
	echo "keys-diff: $FAILS rows differ from tmux"
	exit 1
fi
echo "keys-diff: done ($FAILS rows differ)"
