80 24 0 0

                                                                              [47mab
[49m                                                                              [47m日
éstop- betabetaxé 中文 beta中文中文 [48;5;50m                                            




















