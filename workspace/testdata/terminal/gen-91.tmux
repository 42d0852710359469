80 24 0 0
[42m                                                                              [47m日


[42m                                                                     ü beta日本 
x ü- [43m                                                            [49m               

[43mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm











[49m         [90m[47mé語█ wrapalpha│éstop- █[39m[49m                                                

[43mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
語


