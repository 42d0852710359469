80 24 0 0
[38;5;111mx█beta中文ü alphabetawrapstop é stop é[39mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
    [38;5;111mstop█alphé中文stop│é日本stopbeta│wwrap alpha日本 







[39mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
    é xstop wrapalpha alpha wrap ██ü





                                                                              [38;5;111m日
yyyyyyyyyyyyyyyyyyyyyyyyyy│x-語 │ stop日本alphawrap語xé
[39m                                                       [38;5;111mrrrhhhhhhhhhhhhhhhhhhhhhh
hhhhhhhhhhhhhhhhhhhhh- █ 日本日本é │ x █ wrap日本




