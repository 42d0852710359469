80 24 0 0
[4m[48;5;135mé █ alpha wrap語日本 








[40mcd- stop stopstopx 中文wrap日本中文üx stop █[0m[39m[49m                                  [4m[40mab




[0m[39m[49m                                                                              [4m[40m日








[0m[39m[49m日́[48;5;135m                                                                            [4m日
