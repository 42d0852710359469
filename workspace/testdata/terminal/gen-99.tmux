80 24 0 0
stop [94m日本betastopbetastop-betabetabetaüalpha 日本 語█ 日本中文中文 éü -






[39m                                                                               [38;5;72mü
















