80 24 0 0
[9m[96m[47mbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbộé█ ü-ü alphastopé wra
p [0m[39m[47m      [49m                                                                        
                                                                              [9m[96m[47mab














[0m[39m[46mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap
[49m        [9m[96m[47m│ 


[0m[39m[49m                                                                              [96m[46mab
wrap █ alpha █wrap中文alpha 
