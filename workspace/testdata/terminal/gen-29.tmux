80 24 0 0
                                              [48;5;124mstopü日本betaü日本stopü





wrap alpha 日本xstopbeta ││ betawrap█é x │中文 -wrap│x 

















