80 24 0 0





















[48;5;59m                                                           [48;5;37mü wrap stopstop日本-
語- übeta 日本█-beta語 [44mccccccccccccccccccccccccccccccccccccccccccccccccccccccccc
ccccccccccccccc日本 -é │betastop xalphastop語betax語 ü語│ alphastopwrap
