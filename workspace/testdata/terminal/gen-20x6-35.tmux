20 6 0 0
[9m[96m[47mbbbbbbbbbbbbbbbbbbab
é█ ü-ü a│ hastopé wr

[0m[39m[46mwrap[49m              [96m[46mab
wrap █ alpha █wrap中

