80 24 0 0
[38;2;185;102;4mé中文éx [39metawrapwrapééwrap │ alpha x[48;5;32meeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
[49m│ stop -ü語█ üü é-                                                              
ü x





















