80 24 0 0
ja 中文中文 日本beta語 stop                                                     
x                                      
éln本 x wrapwrap --alpha 




[31mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmp







cccccccccccccccccccccccccccccccccccccccccccccccx 語beta wrapalphaü é- 日本█中文 








