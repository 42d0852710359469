80 24 0 0
│ü日本wrap






[46m       [38;5;6mvv








[39m                                                       [38;5;6mjjjjjjjjjjjjjjjjjjjjjjjjj
[39m[49mü█é 中文üé日本é-xé█ █ é stopwrap -ü                     
[46m                                                        [38;5;6m🙂





