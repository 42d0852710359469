80 24 0 0




éé語│beta█ 中文ü█




                                                                              [40mac
██中文 中文x-alphaéü- 中文 █wrap-wrap xstopx中文beta alphastop d[49m               é
 beta日本█übeta中文alpha ü                                                      

                                                                              日







mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wra[40mx│ betax語-│[41m                                       [49m                          

