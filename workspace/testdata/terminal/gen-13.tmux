80 24 0 0




                                                                               a
lphax                                                                           


















