80 24 0 0
[32m日本- xalpha語 -é betaü │xwrap日本 alpha-wrapbeta x x 本語 │x betaxbeta é 









[39m                                                                              [32mcd








[36mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrapstop 



