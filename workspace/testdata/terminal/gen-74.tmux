80 24 0 0
                                   [30mbeta中文é stopü ██é 





alpha alpha█ stop éwrap│wrap -wrap 
[39m[42mbetabeta日本[49m█ stop日本 █



[30mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap█x ü中文











