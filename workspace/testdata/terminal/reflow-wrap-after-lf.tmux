60 6 3 3

                                      ab
next line
$ X


