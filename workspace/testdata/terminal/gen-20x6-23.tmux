20 6 0 0


[48;5;28m             [4m[96m[58;5;196m日本 日
[0m[39m[49m日alpha stop日本 日
本 beta│alpha alphas
toptkx中文stop 
