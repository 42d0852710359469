80 24 0 0
                            [94m中文[39m                                                
[94mlkk[39m                                                                             
    [96mwtwmqqqamavml█日本中文 -中文日本│ ü 中文stop wrapstop
[94m日[39mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm


[94mttttt
[39m                                                               [94malpha wrapbeta│é
日本















