80 24 0 0
 [7m日本 中文é ü ██- wrap stop 語[0m[39m[49m█語[7mstop beta日本 語 é wrap-ü語alpha語[0m[39m[49m            



[7m[96m日mx~w[0m[39m[49m                                                                          



















