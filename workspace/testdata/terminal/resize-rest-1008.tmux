100 24 0 0
éltrapx
[5méjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj[0m[39m[46m          [49m                       [5mj[0m[39m[49m         


















                                                                              [37m日
[39m                                                                                [38;5;254mü │ beta語 beta alph
a beta--wrap語stop │ [39m                                                                               

