80 24 0 0

[9m[38;5;164m[43mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm













[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm[0m[39m[43m 





[49m                 [9m[37mü日本 -x é alpha語 語│日本beta [0m[39m[49m                [9m[37mwrap日本betabeta
x[30mlq~l~kq

