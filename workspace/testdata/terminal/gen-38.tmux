80 24 0 0
[48;5;171m                             
[49m                                                                            [1;3m[94m[48;5;171m中[0m[39m[49m [48;5;171m 





[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm 









                                                                              日
日本ü█中文│beta é中文wrapbetawrapalphastopalpha stop xüé█-│ ü - x█ 語beta[93m中文 üé



mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm[1m[94m-
█中文中文éü é [3mcccc[48;5;171mx 中文日本 中文中文 
