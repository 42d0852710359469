20 6 0 0
[35m[44m│█ │alphaalpha - ü日
本 -beta│ beta x日本
 alpha stop│beta


[39m   [35mbeta- alpha 語│
