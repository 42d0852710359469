80 24 0 0
[40mnqammstopstop█stop stop alpha --│ wrap ü[49m                                        
















                                                                              [40m日
[4:3m日本 stop│beta│ wrap│語中文x│日本 iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
iiiiiiiiiii[0m[39m[49m                                                                     




