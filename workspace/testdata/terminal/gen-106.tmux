80 24 0 0
stop stop中文é éalpha│中文é                                                     

                                                                               c
     betaü betastop 日本-日本 │                                                 
                                                                              ab

alphastop ü 語                                                                  



      語日本                                                                    

日


cddddd中文 wrap中文                                                             







vww                                                                             
