20 6 0 0
         x wrap█ü語 

[4m[38;2;9;120;44mü é 日本語中文日本 é
 │ -│語中文日本語中
文│xwrapstop betaü é
中文 wrap beta
