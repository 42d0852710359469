20 6 0 0


                   ̣̂[47ms
top中文beta 中文 ü█w
rapbeta ü     🙂日本
█wrapalpha日本alpha
