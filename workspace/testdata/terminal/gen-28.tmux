80 24 0 0











                                                                stop

                                                                    █ 中文 alpha
中文 é ébeta alphaé │ alphax 
                    beta - 中文 │é 日本stop wrap betaalphawrap 








