60 24 0 0






[47m            [38;2;170;74;65malpha語éstopbeta │é 日本中文alphaé 語 beta 

















