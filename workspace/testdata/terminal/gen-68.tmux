80 24 0 0
[4:3m[38;5;205m[48;5;70mq~lk
█- 語 -éé │ 
üstopstop語日本 │日本 




[0m[39m[49m                                                       [4:3m[34m[48;5;70m-日本wrapalpha wrap x é日
[38;5;205m~qjq~aa[34m本 語││ wrapbeta中文█│ é█x中文-ü-xooooooooooooooooooooooooooooo



[0m[39m[49m                                                                              [4:3m[38;5;205m[48;5;70mac
dalphastop[0m[39m[49m                                                                    [4:3m[38;5;205m[48;5;70mab
日中文 alpha日本alpha qlu
cd
[0m[39m[49m                                                                              [4:3m[34m[48;5;70mac
d[0m[39m[49m                                                              [4:3m[34m[48;5;70müx- x日本中文
[0m[39m[49md- 





