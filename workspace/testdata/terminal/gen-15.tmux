80 24 0 0












                                                                               ̣̂[47ms
top中文beta 中文 ü█wrapbeta ü     🙂日本█wrapalpha日本alpha










