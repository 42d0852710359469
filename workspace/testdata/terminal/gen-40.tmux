80 24 0 0
[38;5;85m[46mbeta wrapx│-日本 alpha│ zstop-alpha中文- -beta
[39m█stop 中文x- x[49mha alpha 日本│中文 betaü │ 

                                                                              日
wrapx 語 日本█wrapalpha alpha日本 │語alphaé betaéalphawrap │ x█語[46m█ü wrap█ █日本a
lpha│ 













[38;5;85mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
lllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll
x 中文 █ 中文 │ übeta


