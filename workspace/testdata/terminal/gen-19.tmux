80 24 0 0
wrapé xéxalpha beta ü │                                [35m[48;5;153mvvxbeta-[39m  
[93mé wrap 日本█-






















