80 24 0 0
stop [38;2;46;142;152mx -日本wrap éé übetastopxx -alpha日本stopx beta -中文






[39m     █üddddd






[38;2;189;241;34mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm

[39m                                [38;2;189;241;34m日本 wrapbetaalphawrap│ -é│ alpha é █ -betaé 中







