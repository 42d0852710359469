80 24 0 0
[35m[44m│█ │alphaalpha - ü 語 beta本中文日本~xwxv~jj█ │ 













[39m                            [35m日本 -beta│ beta x日本 alpha stop│beta





[39m             [35mbeta- alpha 語│



