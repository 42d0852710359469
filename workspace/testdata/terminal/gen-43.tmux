80 24 0 0

[38;5;72mujwu日本 wrap日本█│üstopx 日本語 betaalpha ü üé語中文é wrap üwrapü





🙂



[39m                                       [38;5;72mvj





[39m                                                                              [38;5;72mab

eeeeeeeeexbetaü語alpha 日本日本│ 日本 中文betabeta 




