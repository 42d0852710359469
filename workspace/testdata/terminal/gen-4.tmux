80 24 0 0

[45m                                    [7m[34m[41m語語alpha









[0m[39m[45m             [7m[34m[44m-üüüstopx │
[0m[39m[45m                                                                              [7;4:3m[34m[41mab









[0;7m[34m[48;5;46malpha stop中文wrap中文 éstop 語é 

