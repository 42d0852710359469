30 24 2 5
word word word word 
[31mred r r r r r r r r r r r r r 
r r r r r r r r r r r r r r r 
r r r r r r r r r r r r r r r 
r r r r r r r 
[39m$ 


















