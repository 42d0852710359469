80 24 0 0

[4mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrapéé é│ stop█ü語beta éccccccccccccccccccccccccccc









[0m[39m[49m     [4m█語 中文 █中文alpha ü│中文[0m[39m[49m                                                 











