80 24 0 0

                                                                              ad









                                                           










     x 語█ x x│ü ██x x wrap ü alpha語│ é stop wrapü日本

