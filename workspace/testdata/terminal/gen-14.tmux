80 24 0 0



mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap

                                                                              cd
-█ wrap │stopwrap wrap x 語│ █

[48;5;144mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[49m                          é stopbeta-wrap █alphabeta éstop█stopxstop      ab
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap
                                              [41mé│wrapalphastop語beta 語 -stop日本
stop中文█ 語xbetaé日本alphawrap                                                 







                              [49m中文日本 x x[41m                                      

