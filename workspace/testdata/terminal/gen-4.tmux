80 24 0 0
 [94mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrapalphabeta 語語stop日本é日本 beta█ü│alpha-üü
[39mbeta日本-語 x中文 wrap█
sssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssmmmmm
█alpha 日本 █- 日本ü語日本 


                                                                                



[94mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm








[39mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrapx中文- alphaé語 alpha │ü x│ --é wrapbeta üalpha alpha日本 ü日本üstop ü wrap 
語█ 中文 

