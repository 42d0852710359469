80 24 0 0



















                                                      kj~ktm~                   




