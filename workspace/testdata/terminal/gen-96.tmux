80 24 0 0



[95m[41mwrap[58;5;196m中文█ wrap 日本█ alpha█é │ █beta日本qt~nnau中文 ü alpha
[0m[39m[49m                                                                              ab
                                                                                

      [95m[41m[58;5;196m█ - █ 中文中文日本ü ü 語 │


[0m[95m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmp





[41m[58;5;196mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm







