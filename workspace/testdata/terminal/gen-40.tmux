80 24 0 0
[38;5;39m[45müstop[39m  [38;5;39mzzzzzzzzz[39m     [5m[38;5;39mbeta日本█ ü beta █beta│ ü wrap │ beta x éü 語 stop│ beta│[0m[39m[49m [5m[38;5;39m[45ma
wrapx│-[91mhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh-




[38;5;39mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm


[0m[39m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm














