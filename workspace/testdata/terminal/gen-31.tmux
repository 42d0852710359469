80 24 0 0





                                                    [96m[48;5;98mtttttttttttttttttttttttttttt
ttttt[39m[49m                                                   [4:3m[96m[48;5;98mstopé ü中文 █ -






betawrap [0m[39m[49m                                                          [4:3m[96m[48;5;98m語éx beta bet
a 語中文 [0m[39m[49m                       [4:3m[96m[48;5;98méalphabetabeta█stop wrap 中文




[0m[39m[49m│é ébeta -beta語beta alphabeta 語stop




