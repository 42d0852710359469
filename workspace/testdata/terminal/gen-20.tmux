80 24 0 0


                                                                              [34m[46m日





[36m││語wrapwrap 
[39m[49m   [36m[45mwrap│ │ │日本alphaü │ wrap日本 - │x[39m[49m                                [36m[45mstop日本 -
 語stopbeta語üalpha[39m[49m                                [36m[45m語█ ü 日本██ beta│█日本日本 
中文 語 語betaé-alpha









[46m日[34malphaalpha


