80 24 0 0
wrap語alpha - █stop [46m                   [49mhhhhhhhhbeta-中文-█alphaé中文wrapstop bea

                                                                              ab





















