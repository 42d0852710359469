80 24 0 0

[42m                               [4m[95m[48;5;42mé[0m[39m[42m                                                


[4m[95mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[48;5;42mwrapüéüalpha alpha日本語語 [0m[39m[49mx 日本 ü -beta語beta █                     [48;5;42m      
[48;5;131m                      


[4m[95m[42m日
[0m[39m[49m              [4m[95m[42m- wrapbeta 中文 x - é -語alpha │stop wrapxwm[0m[39m[49m                      

[4m[42mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[38;5;108mwrap - █wrapx[0m[39m[49m                                                               










