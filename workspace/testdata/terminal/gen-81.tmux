80 24 0 0
[48;5;182malpha日本 中文ü█ │ stop alpha                            [46mbetaxé中文-語 stopü 日[48;5;182m 
atuqm                                                                         



















                                     é    [46m                                      


