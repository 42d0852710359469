20 6 0 0
[47m                  日
éstop- betabetaxé 中
文 beta中文中文 [48;5;50m    



