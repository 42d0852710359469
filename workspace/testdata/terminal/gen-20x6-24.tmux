20 6 0 0
ja
[31mmmmmmmmmmmmmmmmmmmmp

cccccccccccccccx 語 
[39mé日本 x wrapwrap --a
lnha 
