80 24 0 0
[4:2mrrrrrr-█ [0m[39m[49m                       [4:2mbetax日[0m[39m[49m [4:2m中文 wrap x 語█übeta éwwwwwwwwwwwwwwwwwi
[0m[39m[49m                    éüalpha- 日本中文│語
                                                                              [4:2m日




[0m[39m[49m                                                                              [4:2m日


[0m[39m[49m                                                                               [4:2m│






mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmp




[0m[39m[49m                                                                              [4:2m日̣̂[43mo
[0m[39m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
