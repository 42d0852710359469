80 24 0 0
[38;2;219;193;185mwrap wrap é xbeta日本-█ü


[39m                                                                             日
本alpha                                                                        [38;5;164mp
[39m       [38;5;164mstop日本 █日本é 語betaalpha-日本é 
[39m                                         [38;5;164m中文beta x│中文│x 
ü wrapx語 語alphastop日本stop
















