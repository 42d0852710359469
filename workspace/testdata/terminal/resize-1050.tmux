79 23 0 0


[97mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
m
wrap













[39m                                                                              [97ma
b日本wrapü語語 語 



