80 24 0 0
[40mstopx x llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll       中[49m 
[40m文éalpha日本日本ébeta[49m                                                           




mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
                                                                              [38;5;205m[46mab
[39m[49m        wrap█stop alpha betaüalpha                                              

                                                                              ab
  alphawrap é-ü█ ü stop日本- wrapalpha                  語-wrapébeta 語中文 ü- s
top│ 日本 d                                                           wrap語█alp
ha -stop中文                                                                    










