20 6 0 0


                   [38;5;131m-
alpha│ alpha- 語ü

[39m       
