80 24 0 0

[3m│üalpha- -█ü 中文日本 -wrapalpha 日本中文beta--日本alpha wrapü中文é 日本語語│alp
ha wrap日本█üwrap 中文betax



betaéstopalpha alpha- █│beta

[0m[39m[49m                                                                              [3m日



[0m[39m[49m                                                                              [3mab

cd


[38;2;251;30;125malpha ü 日本日本█ alphaé

mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
[0m[39m[49m                                                                              [3m日

[0m[39m[49m                                                                              [3;4:3m[38;2;251;30;125ma[36ms
topwrapx中文é 日本é beta - 
