20 6 0 0
[4:3m[96m[48;5;98m ü中文 █ -


語éx beta beta 語中
文 awrapéalphabetabe
ta█stop wrap 中文
