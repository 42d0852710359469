80 24 0 0







uvkjqlmv k                                                                      
















