80 24 0 0












[4mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbeta│ █mm








[0m[39m[49m                                                                              [4m[34ma 

[0m[39m[46m                       [4m[34m[47mü beta x ü ü ü [0m[39m[46m                                  [47m        
