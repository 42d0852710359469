100 24 0 14













[38;2;137;94;253m[46mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm

wrap[39m[49m                                                                            








