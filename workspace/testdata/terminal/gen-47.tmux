80 24 0 0


日

[38;5;140mộ[39m                                                          EEEEEEEEEEEEEEEEEEE[38;5;140mab



















