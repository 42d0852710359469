81 25 0 5
ộwvnml[43malpha│wrap日本beta│日本alphaalpha


[49m                                                                              ab





日


mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmw
rap[43m   [49m                           











