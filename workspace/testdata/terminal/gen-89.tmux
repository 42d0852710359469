80 24 0 0
[38;2;20;152;125m[41m中文betaüalpha中文








[39m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm





[41m                                                                              [49mac
d


[41m                                                               [49m中文█│█語




