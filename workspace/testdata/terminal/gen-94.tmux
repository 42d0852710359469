80 24 0 0
[46m                                [5mvxvlk



















[0m[39m[46m                                                                              [5m[92mac
d[0m[39m[46m                                                                             [5mab


