80 24 0 0
[38;5;138m[42mkwauju🙂[39m                         [38;5;138méx 日本中文中文 wrap│x日本stopwrap█ wk日本 █wr 













[39m                                                                              [49m ̣̂[38;5;138m[42mo





[39m                                    [38;5;138mrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr 



