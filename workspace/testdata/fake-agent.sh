#!/bin/sh
# A fake agent CLI for the agent-state tests: it signals the way Claude
# Code and friends do and advances one phase per line typed into it.
printf '\033]0;\342\234\263 Fake Agent\007fake> '
read -r _
printf '\033]0;\342\240\202 Fake Agent\007thinking...\r\n'
printf '\033]0;\342\240\220 Fake Agent\007'
read -r _
printf '\033]9;4;1;50\007half way\r\n'
read -r _
printf '\033]9;4;0\007\033]0;\342\234\263 Fake Agent\007finished\r\nfake> '
read -r _
printf '\007Allow the edit? [y/n] '
read -r _
printf '\033]9;4;2;100\007tests failed\r\n'
read -r _
exit 0
