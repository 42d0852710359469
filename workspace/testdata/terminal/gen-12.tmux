80 24 0 0
[47m                                                 [4m[34m日本│█beta│█wrap中文ü [0m[39m[47m        [4m[34mü


[0m[39m[49m                                         [4m[34m█日本日本éstopbeta中文ü betastopé[47m- - w 
[0m[39m[49m                    wrap 日本xbeta[33m中文 wrapalpha│éwrap xbetaüü 日本█語日本 wrap 
é beta


[39m                                                                               [4m[34m[47m 















