80 24 0 0
















mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[38;5;88müüstopé stop 中文 日本 
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
[31m日ppppppppppppppppppppppppppppppp- xwrapstopx│stopalpha hhhhhhhhhhhhhhhhhhhhhhhh
hhhhhhhhhhhhhhhhhh[39mébetawrap █- alphawrap    [31malph[39mxalpha日本│-x │- [31m日本│[38;2;109;103;176m█beta wra 
[31mp█ 


