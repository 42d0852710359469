20 6 0 0
[4mmmmmmmmmmmmmmmmmmmmm
wrapéé é│ stop█ü語be
ta éccccccccc

[0m[39m[49m     [4m█語 中文 █中文a
lpha ü│中文
