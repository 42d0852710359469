80 24 0 0
















                                                                              日
[38;5;213majmxuala[38;2;131;73;228m~mwjmmté alphaxé ü -中文[39m日́wrapbeta 中文 x語 x││ üübeta alphawrap üalphaü





[35m[48;5;139mqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq
