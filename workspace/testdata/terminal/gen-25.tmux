80 24 0 0
[2m[96m[48;5;235m日本 │語wrap-éalpha stop中文中文 üstop 
[0m[39m[48;5;235mübeta█語beta x                                                                 






















