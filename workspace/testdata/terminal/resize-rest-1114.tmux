100 24 0 0






















[40m                                                                               [2;3m[49m日
[38;5;226m[40m日本wrap日本xx │█ 日本stop語betaéalphaéü[39m[49mbeta中文日本éx│ alpha█語 
