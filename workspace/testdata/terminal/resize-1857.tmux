100 24 0 23
wrapwrap 語 wrap-beta│  stop beta stop é█alpha日本stop日本日本 -















                                                                              acd





[47m日█üéstopstop█wrap日本x[5mnujxvl

