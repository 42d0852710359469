79 23 0 0



[42mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
m日本 x│é█ xü█語[5mäx






[0m[39m[49m                                    [42m█ 日本 x█ 語 stopx é █stop
[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
mwrap- stop beta




[42m                                                                              [5ma
b



