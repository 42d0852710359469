20 6 0 0
x 語- wrap beta中文 
 日本x- 語│日本 é   
                  日
│alpha語beta stop wr
apoooooooooooooooooo
ooooooo日́日本- -bet│
