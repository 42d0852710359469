80 24 0 0









日

日alpha stop日本 日本 beta│alpha alphastoptkx中文stop 


[48;5;28m       [4m[96m[58;5;196mwrapü 中文語beta日本█- stop日本語 stop beta █








[0m[39m[49m                                                     [4m[96m[48;5;28m[58;5;196m日本 日本wrap 🙂ộ
