80 24 0 0
日́
x 語- wrap beta中文 中文beta- 日本          日本 é                             -






                                                                              日
│alpha語beta stop wrapbeta                      xalpha █中文éx stop中文█-語alpha
 
  ooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo
日́日本- -██│ü ü█語中文wrap x ü中文中文語beta█中文│beta中文██│





                                                                              ac
d- │-é alpha -stop語 █日本 




