80 24 0 0
[4:2m█ébeta 語語 ü│ alpha[0m[39m[49m                                                            





                                                                               [4:2m-




mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm[0m[39m[49m 
                                                                              [4:2m日











