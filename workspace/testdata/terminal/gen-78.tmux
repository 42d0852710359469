80 24 0 0
[4:3m[34m🙂wrap日本 x語 x│語x wrapü █ stopxalphabeta ü 語 中文xé übeta中文xalpha日[5:3m[41mwrap中文 





[0m[39m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
│█-betabetastop日本xx│-[4:3m[34mstop語xé









[0m[39m[49m                                                             ộjjjjjn

                                                                              日




