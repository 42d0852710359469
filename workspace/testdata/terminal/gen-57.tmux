80 24 0 0
[38;2;250;236;166m[45mwu[47mx wrap[39m                                                       [49m                 

[38;5;41m中文日本ébeta alpha alpha│中文alpha█x中文x│ █ é日本alpha é alpha│日本 wrap中文█ü
uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu





[38;2;250;236;166m[45mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[39m                                                                            






                                                                              [49m日
█beta 語ü[45m                                                                       





