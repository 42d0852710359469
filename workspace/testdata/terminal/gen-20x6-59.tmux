20 6 0 0
[42m           [4m[95m[48;5;42mé[0m[39m[42m        
[4m[95mmmmmmmmmmmmmmmmmmmmm
wrap[48;5;42mwrapüéüalpha alp
ha日本語語 [42mapb[0m[39m[48;5;42m      
[4m[95m[42m - é -語alpha │stop 
wrapxwm[0m[39m[49m             
