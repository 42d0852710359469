20 6 0 0
[38;5;39m[45müstop[5mbeta日本█ ü bea
mmmmmmmmmmmmmmmmmmmm
[0m[39m[49mmmmmmmmmmmmmmmmmmmmm



