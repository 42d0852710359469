80 24 0 0













                            中文beta betaxbeta 語 中文-x










