80 24 0 0
[30m[48;5;71m日́[39m                                                                              


                                                        [30m[41mộ日本語中文alpha ü stop 
beta [48;5;71mx[39m[49m                                                                          
                                                   [30m[48;5;179mbetax│ é █ x │ alphawrap 







[48;5;71m█日本alpha wrap中文üx alphax語éwrap[39m[49m                                             





                                                                              [30m[41m日

[39m[49m               [30m[48;5;71m中文│betax[39m[49m                                                       


