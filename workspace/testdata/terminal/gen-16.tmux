80 24 0 0
│日本日本betaü █üstopbeta- [48;5;243m                     [49mtaqkjt中文xalpha xwrap alphabeta
日本stop-wrap[48;5;243m              [49malpha ddddddddddddddddddddddddddddddddddddddddddddddd
ddddddddddddddddd





                  日本中文中文 -übeta - │ 




[4m[38;2;9;120;44mü é 日本語中文日本 é │ -│語中文日本語中文│xwrapstop betaü é中文 wrap beta










