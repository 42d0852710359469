20 6 0 0
█alpha中文 beta█-日
[43m         日[49mé │[43m本ésto
本éü 日本-x 日本 日

[49m日alphax -日本 é x x
 
