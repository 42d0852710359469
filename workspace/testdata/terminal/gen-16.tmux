80 24 0 0

















     -x│é 日本stop-betawrap日本- alpha 

                                          [38;2;109;250;102m語中文日本語中文




