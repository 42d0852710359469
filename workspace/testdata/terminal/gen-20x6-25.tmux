20 6 0 0
[2m[96m[48;5;235mx
[0m[39m[48;5;235mübeta█語beta x      

 [2m[96m日本 │語wrap-éalpha
 stop中文中文 üstop 

