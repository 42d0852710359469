80 24 0 0

[40mübetaé █ │












                                                                 [4:3m-[0m[39m[40m            [4:3mab

mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm[0m[39m[49m 
[4:3m[40m🙂[0m[39m[49m                                                                            [4:3m[40mab

[0m[39m[49m                                                                              [4:3m[40ma[0m[39m[49m 
[4:3m[40m日本 wrap[0m[39m[49m                                                                       



