20 6 0 0
[48;5;37m語- übeta 日本█-beta
語 [44mccccccccccccccccc
ccccccc日本 -é │beta
stop xalphastop語bet
ax語 ü語│ alphastopw
rap
