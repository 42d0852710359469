100 24 0 3
wrap日本 alpha語                                                               fffffffffffffffffffff
ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff
                                                                  [48;5;215mü 日本 [49m     [48;5;215mab














[49m                                                                              日






